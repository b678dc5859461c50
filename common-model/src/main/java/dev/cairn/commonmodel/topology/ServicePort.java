package dev.cairn.commonmodel.topology;

/**
 * One port of a Service.
 *
 * @param name the port name, {@code null} when unnamed
 * @param protocol {@code TCP}, {@code UDP} or {@code SCTP}
 * @param port the service port number
 */
public record ServicePort(String name, String protocol, int port) {}
