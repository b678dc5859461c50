package dev.cairn.healthprober.config;

import dev.cairn.healthprober.peer.ServerAddress;
import org.springframework.core.convert.converter.Converter;

/**
 * Binds {@code ip[:port]} and {@code [v6]:port} properties to {@link ServerAddress} (port 53);
 * registered as a {@code @ConfigurationPropertiesBinding} bean.
 */
final class ServerAddressConverter implements Converter<String, ServerAddress> {

  @Override
  public ServerAddress convert(String source) {
    return ServerAddress.require("server address", source, ServerAddress.DNS_PORT);
  }
}
