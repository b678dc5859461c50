package dev.cairn.recordwriter.kube;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Adds {@code fieldManager=<name>} to every create and update of a DNSEndpoint, so the object's
 * {@code managedFields} name the writer ({@code writer.field-manager}) instead of the HTTP client.
 * fabric8 sets the parameter only on patches.
 */
public final class FieldManagerInterceptor implements Interceptor {

  /** The name under which the interceptor is registered on the HTTP client. */
  public static final String NAME = "cairn-field-manager";

  private final String query;

  /** An interceptor for this field manager. */
  public FieldManagerInterceptor(String fieldManager) {
    this.query = "fieldManager=" + URLEncoder.encode(fieldManager, StandardCharsets.UTF_8);
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    String method = request.method();
    URI uri = request.uri();
    if (!("POST".equals(method) || "PUT".equals(method))
        || uri.getPath() == null
        || !uri.getPath().contains("/apis/externaldns.k8s.io/")
        || (uri.getRawQuery() != null && uri.getRawQuery().contains("fieldManager="))) {
      return;
    }
    String raw = uri.toString();
    builder.uri(URI.create(raw + (uri.getRawQuery() == null ? "?" : "&") + query));
  }
}
