package dev.cairn.topologywatcher.health;

import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.topologywatcher.state.Entity;
import dev.cairn.topologywatcher.state.TopologyView;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one structured warning per object and change whose record names problems, and one info line
 * when an object's problems are gone. Unchanged records (resyncs, heartbeats) log nothing, because
 * the view tells listeners only about real changes.
 */
public final class ProblemLog implements TopologyView.Listener {

  private static final Logger log = LoggerFactory.getLogger(ProblemLog.class);

  @Override
  public void changed(Entity entity, String key, Object previous, Object current) {
    List<Problem> now = TopologyView.problemsOf(current);
    if (!now.isEmpty()) {
      log.atWarn()
          .addKeyValue("kind", entity.label())
          .addKeyValue("object", key)
          .addKeyValue("problems", now.size())
          .addKeyValue("details", now.toString())
          .log(
              "{} published with problems (fields named were left out or need fixing): {}",
              key,
              now);
    } else if (current != null && !TopologyView.problemsOf(previous).isEmpty()) {
      log.atInfo()
          .addKeyValue("kind", entity.label())
          .addKeyValue("object", key)
          .log("{}: problems resolved", key);
    }
  }
}
