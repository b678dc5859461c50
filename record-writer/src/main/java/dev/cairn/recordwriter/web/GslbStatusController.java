package dev.cairn.recordwriter.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.recordwriter.ingress.GslbFromIngressPlan;
import dev.cairn.recordwriter.ingress.IngressPlan;
import dev.cairn.recordwriter.kafka.StateFeed;
import dev.cairn.recordwriter.kube.GslbCache;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.reconcile.EmbeddedIngressReconciler;
import dev.cairn.recordwriter.reconcile.GslbStatusReport;
import dev.cairn.recordwriter.reconcile.GslbStatusReports;
import dev.cairn.recordwriter.reconcile.IngressAnnotationReconciler;
import dev.cairn.recordwriter.reconcile.WriteState;
import dev.cairn.recordwriter.status.GslbStatusForm;
import dev.cairn.recordwriter.status.GslbStatusPlan;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The explain API of Gslb statuses: the engine's desired status (with the problems it reported),
 * the status as it would be written, the Gslb's status as it is, what the writer concluded and last
 * wrote, for a Gslb that embeds {@code spec.ingress}, what became of its Ingress, and for the Gslb
 * of an Ingress annotated {@code k8gb.io/strategy}, what became of it.
 */
@RestController
@RequestMapping("/api/v1/gslb-status")
public final class GslbStatusController {

  private final StateFeed<GslbStatus> feed;
  private final GslbStatusReports reports;
  private final GslbCache cache;
  private final EmbeddedIngressReconciler ingresses;
  private final IngressAnnotationReconciler annotated;

  /** Explains from these parts. */
  public GslbStatusController(
      StateFeed<GslbStatus> feed,
      GslbStatusReports reports,
      GslbCache cache,
      EmbeddedIngressReconciler ingresses,
      IngressAnnotationReconciler annotated) {
    this.feed = feed;
    this.reports = reports;
    this.cache = cache;
    this.ingresses = ingresses;
    this.annotated = annotated;
  }

  /**
   * The explanation of one Gslb's status.
   *
   * @param desired the engine's desired status (problems included), or {@code null}
   * @param desiredStatus the status fields that desired status is written as, or {@code null}
   * @param live the Gslb as it is, or {@code null} when it does not exist (or is not watched)
   * @param report the writer's last conclusion and write, or {@code null} if it never planned it
   * @param embeddedIngress the last plan of the Ingress created from {@code spec.ingress} (action,
   *     detail, last write, when); left out when the Gslb embeds none
   * @param fromIngress the last plan of the Gslb made from the annotations of the Ingress of its
   *     name (action, detail, last write, when); left out when there is nothing to report (no such
   *     Ingress, or the Gslb follows it)
   */
  public record Explanation(
      GslbStatus desired,
      Map<String, Object> desiredStatus,
      LiveView live,
      GslbStatusReport report,
      @JsonInclude(JsonInclude.Include.NON_NULL) WriteState<IngressPlan.Action> embeddedIngress,
      @JsonInclude(JsonInclude.Include.NON_NULL)
          WriteState<GslbFromIngressPlan.Action> fromIngress) {}

  /**
   * A Gslb as it is.
   *
   * @param uid its uid
   * @param resourceVersion its resourceVersion
   * @param status its {@code status}, as stored
   */
  public record LiveView(String uid, String resourceVersion, Object status) {}

  /** Explains the status of one Gslb; 404 when the writer knows nothing about it. */
  @GetMapping("/{namespace}/{name}")
  public ResponseEntity<String> explain(@PathVariable String namespace, @PathVariable String name) {
    ObjectKey key = ObjectKey.of(namespace, name);
    GslbStatus desired = feed.get(GslbStatusPlan.KIND + "/" + key);
    LiveView live = cache.get(key).map(GslbStatusController::view).orElse(null);
    GslbStatusReport report = reports.get(key).orElse(null);
    WriteState<IngressPlan.Action> ingress = ingresses.state(key);
    WriteState<GslbFromIngressPlan.Action> fromIngress = annotated.state(key);
    if (desired == null
        && live == null
        && report == null
        && ingress == null
        && fromIngress == null) {
      return ApiError.notFound("the writer knows nothing about Gslb " + namespace + "/" + name);
    }
    return JsonAnswer.ok(
        new Explanation(
            desired,
            desired == null ? null : GslbStatusForm.render(desired).fields(),
            live,
            report,
            ingress,
            fromIngress));
  }

  private static LiveView view(GenericKubernetesResource r) {
    return new LiveView(
        r.getMetadata().getUid(),
        r.getMetadata().getResourceVersion(),
        r.getAdditionalProperties().get("status"));
  }
}
