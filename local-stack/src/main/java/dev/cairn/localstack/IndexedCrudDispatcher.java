package dev.cairn.localstack;

import dev.cairn.commonmodel.codec.CairnJson;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.server.mock.CustomResourceDefinitionProcessor;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherException;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherHandler;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudPersistence;
import io.fabric8.kubernetes.client.server.mock.crud.PatchHandler;
import io.fabric8.kubernetes.client.server.mock.crud.PostHandler;
import io.fabric8.kubernetes.client.server.mock.crud.PutHandler;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.client.utils.Utils;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The mock API's CRUD store: fabric8's Kubernetes CRUD semantics with an index, so a request costs
 * the same with 40 objects as with 40,000.
 *
 * <p>fabric8's {@code KubernetesCrudDispatcher} keeps every object of every kind in one map keyed
 * by attribute sets and answers each request (get, create, update, patch, delete and the 409 checks
 * behind them) by matching the request's attributes against every stored object; its watch listener
 * blocks the server's event loop for up to a minute when a client closes a watch, and a watch
 * ignores {@code resourceVersion} (every reconnect replays the whole kind as ADDED). This
 * dispatcher keeps fabric8's request semantics by reusing its pieces: {@link
 * KubernetesAttributesExtractor} (paths, label and field selectors, object attributes), {@link
 * CustomResourceDefinitionProcessor} (CRDs, status subresource) and the {@link PostHandler}, {@link
 * PutHandler} and {@link PatchHandler} (validation, metadata, generation, resourceVersion,
 * optimistic concurrency, status subresource), which reach the store only through {@link
 * KubernetesCrudPersistence}. The store behind that interface is its own:
 *
 * <ul>
 *   <li>one table per resource type (API group, version, plural), objects sorted by {@code
 *       namespace/name} as the API server lists them: get, update, patch and delete by name are a
 *       map lookup, a list only reads its type (and a namespace's range), still filtered by the
 *       same attribute matching;
 *   <li>watches honour {@code resourceVersion}: none or {@code 0} starts with the current objects
 *       as ADDED, a later one replays the type's changes after it from a bounded history, one older
 *       than that history gets the API server's {@code 410 Expired} so the informer lists again;
 *       DELETED events carry the deletion's resourceVersion; with {@code allowWatchBookmarks} a
 *       watch that has missed its type's changes gets a BOOKMARK at most once a second;
 *   <li>a watch event is encoded once per change, not once per watcher, and is written from the
 *       thread that made the change (the server's event loop) without waiting; closing a watch only
 *       unregisters it;
 *   <li>an update (PUT, merge or JSON patch) does fabric8's work without its repetitions: the PUT
 *       body is parsed once (fabric8 binds it to a typed object for validation and parses it again
 *       into a tree), "did the object change" and "did its spec change" are tree comparisons
 *       (fabric8 builds a JSON diff for each), and the stored object's attributes come from the
 *       updated tree (fabric8 hands over only its JSON, which was parsed again). The answers are
 *       the same request for request ({@code IndexedCrudUpdatesIT});
 *   <li>core {@code v1} Events include the {@code events.k8s.io/v1} Events in their core form, as
 *       the API server serves one Event through both APIs ({@link CoreEvents}), so {@code kubectl
 *       describe} shows the Events Cairn records;
 *   <li>a server-side dry run ({@code ?dryRun=All}, or {@code dryRun} in a delete's options) is
 *       admitted and answered as the write would be, and stores nothing.
 * </ul>
 *
 * <p>Requests are serialised by a read-write lock (the server calls it from one event loop, so it
 * is never contended there).
 */
final class IndexedCrudDispatcher extends Dispatcher implements KubernetesCrudPersistence {

  /**
   * Parses request bodies and stored objects into trees with fabric8's Jackson 2 defaults on a
   * factory that does not canonicalize property names (Gslb statuses are keyed by host names: see
   * {@link CairnJson#factory()}); binding stays with fabric8's mapper.
   */
  private static final JsonMapper TREES = CairnJson.kubernetesMapperBuilder().build();

  private static final Logger log = LoggerFactory.getLogger(IndexedCrudDispatcher.class);

  /** Changes kept per resource type for watches that resume from a resourceVersion. */
  static final int DEFAULT_HISTORY = 4096;

  private static final String NAME = KubernetesAttributesExtractor.NAME;
  private static final String NAMESPACE = KubernetesAttributesExtractor.NAMESPACE;

  /** How often at most a watch that misses its type's changes is sent a bookmark. */
  static final Duration DEFAULT_BOOKMARK_INTERVAL = Duration.ofSeconds(1);

  private final KubernetesAttributesExtractor extractor = new KubernetesAttributesExtractor();
  private final CustomResourceDefinitionProcessor crds = new CustomResourceDefinitionProcessor();
  private final AtomicLong resourceVersion = new AtomicLong();
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Map<String, Table> tables = new ConcurrentHashMap<>();

  /** The checked schemas by CRD (its stored JSON) and version; a changed CRD is a new key. */
  private final Map<String, CustomResourceAdmission.Schema> schemas = new HashMap<>();

  private final KubernetesCrudDispatcherHandler postHandler;
  private final KubernetesCrudDispatcherHandler putHandler;
  private final KubernetesCrudDispatcherHandler patchHandler;
  private final int historyLimit;
  private final long bookmarkIntervalNanos;

  /**
   * Whether an update (PUT, PATCH) skips fabric8's redundant work: the request body parsed once
   * instead of twice (once into a typed object for validation, once into a tree), the "did it
   * change" checks by tree equality instead of two JSON diffs, and the stored object's attributes
   * taken from the updated tree instead of parsing the JSON just written. Off only in the test that
   * compares both paths request by request.
   */
  private final boolean cheapUpdates;

  /** The tree of the body {@link #putHandler} just validated, handed to fabric8's next asNode. */
  private String parsedBody;

  private JsonNode parsedBodyTree;

  /** The tree the write in progress is about to store (its resourceVersion just set). */
  private JsonNode updatedTree;

  /** True while a dry-run write is handled: {@link #processEvent} then stores nothing. */
  private boolean dryRun;

  IndexedCrudDispatcher() {
    this(DEFAULT_HISTORY, DEFAULT_BOOKMARK_INTERVAL);
  }

  /**
   * A store that keeps {@code historyLimit} changes per resource type for resuming watches and
   * sends a watch that accepts bookmarks one at most every {@code bookmarkInterval} while it misses
   * changes of its type.
   *
   * @throws IllegalArgumentException if {@code historyLimit} is below 1 or the interval negative
   */
  IndexedCrudDispatcher(int historyLimit, Duration bookmarkInterval) {
    this(historyLimit, bookmarkInterval, true);
  }

  /**
   * As {@link #IndexedCrudDispatcher(int, Duration)}, with fabric8's own update path when {@code
   * cheapUpdates} is false (for the test that compares the two).
   */
  IndexedCrudDispatcher(int historyLimit, Duration bookmarkInterval, boolean cheapUpdates) {
    this.cheapUpdates = cheapUpdates;
    if (historyLimit < 1) {
      throw new IllegalArgumentException("historyLimit must be at least 1, was " + historyLimit);
    }
    if (bookmarkInterval.isNegative()) {
      throw new IllegalArgumentException(
          "bookmarkInterval must not be negative: " + bookmarkInterval);
    }
    this.historyLimit = historyLimit;
    this.bookmarkIntervalNanos = bookmarkInterval.toNanos();
    extractor.setCustomResourceDefinitionProcessor(crds);
    postHandler = new PostHandler(extractor, this);
    putHandler = cheapUpdates ? new OneParsePutHandler() : new PutHandler(this);
    patchHandler = new PatchHandler(this);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    String path = request.getPath();
    try {
      boolean dryRun;
      switch (request.method()) {
        case POST, PUT, PATCH, DELETE -> {
          String value = queryParameter(path, "dryRun");
          if (value == null && request.method() == io.fabric8.mockwebserver.dsl.HttpMethod.DELETE) {
            value = deleteOptionsDryRun(request);
          }
          if (value != null && !value.equals("All")) {
            return status(
                400,
                "BadRequest",
                "dryRun: Unsupported value: \"" + value + "\": supported values: \"All\"");
          }
          dryRun = value != null;
        }
        default -> dryRun = false;
      }
      return switch (request.method()) {
        case POST -> write(request, postHandler, dryRun);
        case PUT -> write(request, putHandler, dryRun);
        case PATCH -> write(request, patchHandler, dryRun);
        case GET ->
            isWatch(path)
                ? isWebSocket(request)
                    ? watch(path)
                    : status(
                        400,
                        "BadRequest",
                        "this mock API (Cairn's local stack) serves watches over WebSocket only, as"
                            + " fabric8 clients open them; a streamed HTTP watch (kubectl get"
                            + " --watch) is not supported: run the get again instead")
                : read(path, wantsTable(request));
        case DELETE -> delete(path, dryRun);
        default -> status(405, "MethodNotAllowed", request.getMethod() + " is not supported");
      };
    } catch (IllegalArgumentException e) {
      // Serialization and path parsing reject malformed input this way.
      return status(400, "BadRequest", request.getMethod() + " " + path + ": " + e.getMessage());
    } catch (RuntimeException e) {
      log.atWarn()
          .setCause(e)
          .addKeyValue("method", request.getMethod())
          .addKeyValue("path", path)
          .log("mock API request failed");
      return status(500, "InternalError", request.getMethod() + " " + path + ": " + e);
    }
  }

  /**
   * The {@code dryRun} of a DELETE's body ({@code DeleteOptions}, where kubectl puts it) as one
   * value: null when absent or empty, else its values joined by commas.
   */
  private static String deleteOptionsDryRun(RecordedRequest request) {
    if (request.getBody() == null || request.getBody().size() == 0) {
      return null;
    }
    JsonNode options;
    try {
      options = TREES.readTree(request.getBody().getBytes());
    } catch (JacksonException e) {
      return null;
    }
    JsonNode dryRun = options.path("dryRun");
    if (!dryRun.isArray() || dryRun.isEmpty()) {
      return null;
    }
    List<String> values = new ArrayList<>();
    dryRun.forEach(v -> values.add(v.asString("")));
    return String.join(",", values);
  }

  /**
   * The value of a query parameter of a request path (the last one when repeated), or null.
   * Package-private for its test.
   */
  static String queryParameter(String path, String name) {
    int q = path == null ? -1 : path.indexOf('?');
    if (q < 0) {
      return null;
    }
    String value = null;
    for (String pair : path.substring(q + 1).split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      if (key.equals(name)) {
        value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      }
    }
    return value;
  }

  /**
   * A create, update or patch. With {@code dryRun} (the API server's {@code ?dryRun=All}, sent by
   * {@code kubectl --dry-run=server}) it is admitted and validated, and answered with the object as
   * it would be stored, but nothing is stored and no watch sees it.
   */
  private MockResponse write(
      RecordedRequest request, KubernetesCrudDispatcherHandler handler, boolean dryRun) {
    lock.writeLock().lock();
    try {
      this.dryRun = dryRun;
      CustomResourceAdmission.Outcome admitted = admit(request);
      if (admitted.refused() != null) {
        return admitted.refused();
      }
      RecordedRequest admittedRequest =
          statusPathWithoutQuery(mergePatchAsUpdate(admitted.request()));
      KubernetesCrudDispatcherHandler chosen =
          admittedRequest.method() == request.method() ? handler : putHandler;
      MockResponse response = json(chosen.handle(admittedRequest));
      for (String warning : admitted.warnings()) {
        response.addHeader("Warning", "299 - \"" + warning.replace("\"", "\\\"") + "\"");
      }
      return response;
    } catch (KubernetesCrudDispatcherException e) {
      return json(new MockResponse().setResponseCode(e.getCode()).setBody(e.toStatusBody()));
    } finally {
      // Whatever a failed write left behind must not reach the next one.
      this.dryRun = false;
      parsedBody = null;
      parsedBodyTree = null;
      updatedTree = null;
      lock.writeLock().unlock();
    }
  }

  /**
   * A write to a {@code /status} subresource with its query parameters dropped, once admission has
   * read them ({@code fieldValidation}): fabric8's handlers tell a status write by the path ending
   * in {@code /status}, so kubectl's {@code ?fieldManager=…&fieldValidation=Strict} made its {@code
   * patch}/{@code replace --subresource=status} a write of the main resource, which keeps the
   * stored status: the request answered 200 and changed nothing.
   */
  static RecordedRequest statusPathWithoutQuery(RecordedRequest request) {
    String path = request.getPath();
    int q = path == null ? -1 : path.indexOf('?');
    if (q < 0 || !path.substring(0, q).endsWith("/status")) {
      return request;
    }
    return new RecordedRequest(
        request.getHttpVersion(),
        request.method(),
        path.substring(0, q),
        request.getHeaders(),
        request.getBody());
  }

  /**
   * fabric8's PUT handler with its body parsed once: the validation reads the tree that the handler
   * asks for next ({@link #asNode(String)}) instead of binding a typed object of its own, and it
   * falls back to fabric8's validation (and its error) for anything it does not accept at once.
   */
  private final class OneParsePutHandler extends PutHandler {
    OneParsePutHandler() {
      super(IndexedCrudDispatcher.this);
    }

    @Override
    public GenericKubernetesResource validateRequestBody(String body)
        throws KubernetesCrudDispatcherException {
      JsonNode tree;
      try {
        tree = TREES.readTree(body);
      } catch (JacksonException e) {
        return super.validateRequestBody(body);
      }
      GenericKubernetesResource head = head(tree);
      if (head == null
          || Utils.isNullOrEmpty(head.getKind())
          || Utils.isNullOrEmpty(head.getApiVersion())
          || head.getMetadata() == null
          || (Utils.isNullOrEmpty(head.getMetadata().getName())
              && Utils.isNullOrEmpty(head.getMetadata().getGenerateName()))) {
        return super.validateRequestBody(body);
      }
      parsedBody = body;
      parsedBodyTree = tree;
      return head;
    }
  }

  /**
   * An object's apiVersion, kind and metadata, all that the store and the update handlers read of a
   * typed object (the spec and status stay in the tree), or null when the tree is not an object or
   * its metadata does not bind.
   */
  private static GenericKubernetesResource head(JsonNode tree) {
    if (!(tree instanceof ObjectNode)) {
      return null;
    }
    GenericKubernetesResource head = new GenericKubernetesResource();
    head.setApiVersion(textOrNull(tree.get("apiVersion")));
    head.setKind(textOrNull(tree.get("kind")));
    JsonNode metadata = tree.get("metadata");
    if (metadata != null && !metadata.isNull()) {
      try {
        head.setMetadata(Serialization.jsonMapper().treeToValue(metadata, ObjectMeta.class));
      } catch (JacksonException | IllegalArgumentException e) {
        return null;
      }
    }
    return head;
  }

  private static String textOrNull(JsonNode node) {
    return node == null || node.isNull() ? null : node.asString();
  }

  /** The annotation in which {@code kubectl apply} keeps the configuration it applied. */
  private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  /**
   * A JSON merge patch or a strategic merge patch as the update it makes, as the API server applies
   * them. A merge patch follows RFC 7386: a list in the patch replaces the stored list (fabric8's
   * patch handler merged lists item by item, so {@code kubectl patch --type=merge} kept old items).
   * A strategic merge patch, which fabric8's handler refuses (415, shown by kubectl as "The Unknown
   * "" is invalid"), is applied as a merge patch without its {@code $} directives; when it comes
   * from {@code kubectl apply}, the configuration it carries in {@value #LAST_APPLIED} then sets
   * every field it declares, so that lists come out as applied (a real server merges lists by their
   * merge keys; the result is the same for what apply sends). Anything else, and a patch of an
   * object that does not exist (the handler answers 404), passes as it is.
   */
  private RecordedRequest mergePatchAsUpdate(RecordedRequest request) {
    String type = request.getHeader("Content-Type");
    if (request.method() != io.fabric8.mockwebserver.dsl.HttpMethod.PATCH || type == null) {
      return request;
    }
    boolean strategic = type.startsWith("application/strategic-merge-patch+json");
    if (!strategic && !type.startsWith("application/merge-patch+json")) {
      return request;
    }
    AttributeSet query = pathAttributes(request.getPath());
    Table table = tables.get(tableKey(query));
    List<Stored> found = table == null ? List.of() : table.select(query);
    if (found.size() != 1) {
      return request;
    }
    JsonNode patch;
    try {
      patch = TREES.readTree(request.getBody().getBytes());
    } catch (JacksonException e) {
      return request; // not JSON: the handler answers 400
    }
    if (strategic) {
      patch = withoutDirectives(patch);
    }
    JsonNode merged = CustomResourceAdmission.merge(TREES.readTree(found.get(0).json()), patch);
    String applied =
        strategic ? patch.path("metadata").path("annotations").path(LAST_APPLIED).asString("") : "";
    if (!applied.isEmpty()) {
      try {
        merged = overlay(merged, TREES.readTree(applied));
      } catch (JacksonException e) {
        // not JSON: the merge patch alone
      }
    }
    return new RecordedRequest(
        request.getHttpVersion(),
        io.fabric8.mockwebserver.dsl.HttpMethod.PUT,
        request.getPath(),
        request.getHeaders(),
        new Buffer(TREES.writeValueAsBytes(merged)));
  }

  /**
   * A strategic merge patch without its directives ({@code $setElementOrder/…}, {@code $patch}).
   */
  static JsonNode withoutDirectives(JsonNode patch) {
    if (patch instanceof ObjectNode object) {
      ObjectNode copy = object.objectNode();
      for (Map.Entry<String, JsonNode> e : object.properties()) {
        if (!e.getKey().startsWith("$")) {
          copy.set(e.getKey(), withoutDirectives(e.getValue()));
        }
      }
      return copy;
    }
    if (patch instanceof ArrayNode array) {
      ArrayNode copy = array.arrayNode();
      array.forEach(item -> copy.add(withoutDirectives(item)));
      return copy;
    }
    return patch;
  }

  /**
   * {@code target} with every field {@code config} declares set from it (objects field by field).
   */
  static JsonNode overlay(JsonNode target, JsonNode config) {
    if (!(target instanceof ObjectNode object) || !(config instanceof ObjectNode fields)) {
      return config;
    }
    ObjectNode result = object.deepCopy();
    for (Map.Entry<String, JsonNode> e : fields.properties()) {
      result.set(e.getKey(), overlay(result.get(e.getKey()), e.getValue()));
    }
    return result;
  }

  /** True for a request that asks to become a WebSocket (how fabric8 clients watch). */
  private static boolean isWebSocket(RecordedRequest request) {
    String upgrade = request.getHeader("Upgrade");
    return upgrade != null && upgrade.equalsIgnoreCase("websocket");
  }

  /** True when the client asks for a {@code meta.k8s.io/v1} Table (kubectl get does). */
  private static boolean wantsTable(RecordedRequest request) {
    String accept = request.getHeader("Accept");
    return accept != null && accept.contains("as=Table") && accept.contains("g=meta.k8s.io");
  }

  private MockResponse read(String path, boolean asTable) {
    AttributeSet query = pathAttributes(path);
    if (isCoreEvents(query)) {
      return coreEvents(path, query, asTable);
    }
    lock.readLock().lock();
    try {
      Table table = tables.get(tableKey(query));
      List<Stored> items = table == null ? List.of() : table.select(query);
      boolean found =
          query.containsKey(NAME)
              ? !items.isEmpty()
              : query.containsKey(KubernetesAttributesExtractor.PLURAL);
      Optional<List<ServerTables.Column>> columns =
          asTable && found ? customResourceColumns(query) : Optional.empty();
      if (columns.isPresent()) {
        List<JsonNode> objects = new ArrayList<>(items.size());
        for (Stored item : items) {
          objects.add(TREES.readTree(item.json()));
        }
        return table(
            ServerTables.customResources(
                columns.get(),
                objects,
                String.valueOf(resourceVersion.get()),
                include(path),
                Instant.now()));
      }
      if (asTable && found) {
        Optional<MockResponse> builtin = builtinTable(path, query, items);
        if (builtin.isPresent()) {
          return builtin.get();
        }
      }
      if (query.containsKey(NAME)) {
        return items.isEmpty()
            ? notFound(query)
            : json(new MockResponse().setResponseCode(200).setBody(items.get(0).json()));
      }
      if (items.isEmpty()) {
        String apiResources = crds.getApiResources(path);
        if (apiResources != null) {
          return json(new MockResponse().setResponseCode(200).setBody(apiResources));
        }
      }
      if (!query.containsKey(KubernetesAttributesExtractor.PLURAL)) {
        return status(404, "NotFound", "the server could not find the requested resource " + path);
      }
      return json(
          new MockResponse().setResponseCode(200).setBody(list(query, table, jsonOf(items))));
    } finally {
      lock.readLock().unlock();
    }
  }

  /** A Table of built-in objects with the API server's columns ({@link BuiltinTables}). */
  private Optional<MockResponse> builtinTable(String path, AttributeSet query, List<Stored> items) {
    String api = value(query, KubernetesAttributesExtractor.API);
    String version = value(query, KubernetesAttributesExtractor.VERSION);
    String plural = value(query, KubernetesAttributesExtractor.PLURAL);
    if (version == null || plural == null) {
      return Optional.empty();
    }
    List<JsonNode> objects = new ArrayList<>(items.size());
    for (Stored item : items) {
      objects.add(TREES.readTree(item.json()));
    }
    return BuiltinTables.table(
            api == null || api.isEmpty() ? version : api + "/" + version,
            plural,
            objects,
            String.valueOf(resourceVersion.get()),
            include(path),
            Instant.now())
        .map(IndexedCrudDispatcher::table);
  }

  /**
   * A list as the API server sends it: named after the kind ({@code GslbList}), in the type's
   * apiVersion, so that typed clients (kubectl's Event search in {@code describe}) can decode it.
   * fabric8's composer names every list {@code v1 List}.
   */
  private String list(AttributeSet query, Table table, List<String> items) {
    String api = value(query, KubernetesAttributesExtractor.API);
    String version = value(query, KubernetesAttributesExtractor.VERSION);
    String plural = value(query, KubernetesAttributesExtractor.PLURAL);
    Optional<String> kind = ApiResources.kind(api, version, plural);
    if (kind.isPresent()) {
      return list(api == null || api.isEmpty() ? version : api + "/" + version, kind.get(), items);
    }
    if (table != null && table.kind != null) {
      return list(table.apiVersion, table.kind, items);
    }
    return list("v1", null, items);
  }

  /** A list of {@code kind} ({@code null}: a plain {@code List}) of the items' JSON. */
  private String list(String apiVersion, String kind, List<String> items) {
    StringBuilder b = new StringBuilder(64 + items.size() * 512);
    b.append("{\"apiVersion\":\"")
        .append(apiVersion)
        .append("\",\"kind\":\"")
        .append(kind == null ? "List" : kind + "List")
        .append("\",\"metadata\":{\"resourceVersion\":\"")
        .append(resourceVersion.get())
        .append("\"},\"items\":[");
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(items.get(i));
    }
    return b.append("]}").toString();
  }

  /** The table of {@code events.k8s.io/v1} Events ({@link #tableKey}). */
  static final String EVENTS_V1 = "events.k8s.io/v1/events";

  /** True for a read of core {@code v1} Events. */
  private static boolean isCoreEvents(AttributeSet query) {
    String api = value(query, KubernetesAttributesExtractor.API);
    return "events".equals(value(query, KubernetesAttributesExtractor.PLURAL))
        && "v1".equals(value(query, KubernetesAttributesExtractor.VERSION))
        && (api == null || api.isEmpty());
  }

  /** What each row of a Table carries, from the request's {@code includeObject}. */
  private static ServerTables.Include include(String path) {
    return ServerTables.Include.of(queryParameters(path).get("includeObject"));
  }

  /** A 200 answer with a Table. */
  private static MockResponse table(JsonNode table) {
    return json(new MockResponse().setResponseCode(200).setBody(TREES.writeValueAsString(table)));
  }

  /**
   * The API server's checks of a custom resource against its CRD's schema, for writes that ask for
   * field validation ({@link CustomResourceAdmission}); everything else passes as it is.
   */
  private CustomResourceAdmission.Outcome admit(RecordedRequest request) {
    String path = request.getPath();
    if (!path.contains("fieldValidation=")) {
      return CustomResourceAdmission.Outcome.accept(request);
    }
    AttributeSet query = pathAttributes(path);
    String version = value(query, KubernetesAttributesExtractor.VERSION);
    Optional<String> crd = customResourceDefinition(query);
    if (crd.isEmpty() || version == null) {
      return CustomResourceAdmission.Outcome.accept(request);
    }
    CustomResourceAdmission.Schema schema =
        schemas.computeIfAbsent(
            crd.get() + "\n" + version,
            k -> CustomResourceAdmission.Schema.of(TREES.readTree(crd.get()), version));
    if (schema == null) {
      return CustomResourceAdmission.Outcome.accept(request);
    }
    String current = null;
    if (request.method() == io.fabric8.mockwebserver.dsl.HttpMethod.PATCH) {
      Table table = tables.get(tableKey(query));
      List<Stored> found = table == null ? List.of() : table.select(query);
      current = found.isEmpty() ? null : found.get(0).json();
    }
    int q = path.indexOf('?');
    boolean statusWrite = (q < 0 ? path : path.substring(0, q)).endsWith("/status");
    return CustomResourceAdmission.admit(request, schema, current, statusWrite);
  }

  /** The stored CustomResourceDefinition (JSON) of a path's custom resource type, if any. */
  private Optional<String> customResourceDefinition(AttributeSet query) {
    String group = value(query, KubernetesAttributesExtractor.API);
    String plural = value(query, KubernetesAttributesExtractor.PLURAL);
    Table crds = tables.get("apiextensions.k8s.io/v1/customresourcedefinitions");
    if (group == null || group.isEmpty() || plural == null || crds == null) {
      return Optional.empty();
    }
    Stored crd = crds.objects.get(plural + "." + group);
    return crd == null ? Optional.empty() : Optional.of(crd.json());
  }

  /**
   * The printer columns of a custom resource type, from its CustomResourceDefinition in this store;
   * empty for a type no CRD defines (built-in kinds, printed by kubectl from a plain list).
   */
  private Optional<List<ServerTables.Column>> customResourceColumns(AttributeSet query) {
    String version = value(query, KubernetesAttributesExtractor.VERSION);
    Optional<String> crd = customResourceDefinition(query);
    return crd.isEmpty() || version == null
        ? Optional.empty()
        : ServerTables.crdColumns(TREES.readTree(crd.get()), version);
  }

  /**
   * Core {@code v1} Events, as the API server serves them: the core Events stored and every {@code
   * events.k8s.io/v1} Event in its core form ({@link CoreEvents}), one by name or a list, filtered
   * by namespace and field selector. A watch of core Events sees only core Events.
   */
  private MockResponse coreEvents(String path, AttributeSet query, boolean asTable) {
    List<CoreEvents.Term> terms;
    try {
      terms = CoreEvents.parse(queryParameters(path).get("fieldSelector"));
    } catch (IllegalArgumentException e) {
      return status(400, "BadRequest", path + ": " + e.getMessage());
    }
    String namespace = value(query, NAMESPACE);
    String name = value(query, NAME);
    List<String> items = new ArrayList<>();
    lock.readLock().lock();
    try {
      for (String key : List.of(tableKey(query), EVENTS_V1)) {
        Table table = tables.get(key);
        if (table == null) {
          continue;
        }
        Collection<Stored> candidates =
            namespace == null
                ? table.objects.values()
                : table.objects.subMap(namespace + "/", namespace + "0").values();
        for (Stored candidate : candidates) {
          JsonNode event = TREES.readTree(candidate.json());
          JsonNode core = key.equals(EVENTS_V1) ? CoreEvents.toCore(event) : event;
          String eventName = core.path("metadata").path("name").asString();
          if ((name == null || name.equals(eventName)) && CoreEvents.matches(terms, core)) {
            items.add(TREES.writeValueAsString(core));
          }
        }
      }
      if (name != null && items.isEmpty()) {
        return notFound(query);
      }
      if (asTable) {
        List<JsonNode> events = new ArrayList<>(items.size());
        for (String item : name == null ? items : items.subList(0, 1)) {
          events.add(TREES.readTree(item));
        }
        return table(
            ServerTables.events(
                events, String.valueOf(resourceVersion.get()), include(path), Instant.now()));
      }
      if (name != null) {
        return json(new MockResponse().setResponseCode(200).setBody(items.get(0)));
      }
      return json(new MockResponse().setResponseCode(200).setBody(list("v1", "Event", items)));
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Deletes what the path names (one object, or every object it selects), or with {@code dryRun}
   * only answers what would be deleted.
   */
  private MockResponse delete(String path, boolean dryRun) {
    AttributeSet query = pathAttributes(path);
    lock.writeLock().lock();
    try {
      Table table = tables.get(tableKey(query));
      List<Stored> items = table == null ? List.of() : table.select(query);
      if (!dryRun) {
        for (Stored item : items) {
          deleteOne(path, query, item);
        }
      }
      if (query.containsKey(NAME)) {
        return items.isEmpty()
            ? notFound(query)
            : json(new MockResponse().setResponseCode(200).setBody(items.get(0).json()));
      }
      return json(
          new MockResponse().setResponseCode(200).setBody(list(query, table, jsonOf(items))));
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Deletes an object, or marks it for deletion while it has finalizers (as fabric8 does). */
  private void deleteOne(String path, AttributeSet query, Stored item) {
    GenericKubernetesResource resource =
        Serialization.unmarshal(item.json(), GenericKubernetesResource.class);
    if (resource.getFinalizers().isEmpty()) {
      processEvent(path, query, item.attributes(), null, null);
    } else if (!resource.isMarkedForDeletion()) {
      resource
          .getMetadata()
          .setDeletionTimestamp(
              ZonedDateTime.now(ZoneOffset.UTC)
                  .truncatedTo(ChronoUnit.SECONDS)
                  .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
      resource.getMetadata().setResourceVersion(String.valueOf(requestResourceVersion()));
      processEvent(path, query, item.attributes(), resource, Serialization.asJson(resource));
    }
  }

  private MockResponse watch(String path) {
    AttributeSet query = pathAttributes(path);
    if (!query.containsKey(KubernetesAttributesExtractor.PLURAL)) {
      return status(404, "NotFound", "the server could not find the requested resource " + path);
    }
    Map<String, String> parameters = queryParameters(path);
    String since = parameters.get("resourceVersion");
    if (since != null && !since.isEmpty() && parseVersion(since) < 0) {
      return status(400, "BadRequest", "invalid resourceVersion " + since + " in " + path);
    }
    boolean bookmarks = "true".equals(parameters.get("allowWatchBookmarks"));
    return new MockResponse()
        .withWebSocketUpgrade(new StoreWatch(this, tableKey(query), query, since, bookmarks));
  }

  /**
   * Starts a watch once its WebSocket is open: sends what it must see first (the current objects,
   * the changes since its resourceVersion, or 410 Expired) and registers it for later changes, all
   * under the lock, so it misses nothing and sees nothing twice.
   */
  void open(StoreWatch watch) {
    lock.writeLock().lock();
    try {
      Table table = tables.computeIfAbsent(watch.tableKey(), k -> new Table());
      String since = watch.since();
      if (since == null || since.isEmpty() || "0".equals(since)) {
        for (Stored item : table.select(watch.query())) {
          watch.send(WatchEvents.event("ADDED", item.json()));
        }
      } else {
        long from = parseVersion(since);
        if (from < table.compactedThrough) {
          watch.expire(
              WatchEvents.expired(
                  "too old resource version: " + from + " (" + table.compactedThrough + ")"));
          return;
        }
        for (Change change : table.history) {
          if (change.resourceVersion > from) {
            watch.deliver(change);
          }
        }
      }
      table.watches.add(watch);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Forgets a closed watch; never waits (it runs on the server's event loop). */
  void closed(StoreWatch watch) {
    Table table = tables.get(watch.tableKey());
    if (table != null) {
      table.watches.remove(watch);
    }
  }

  // KubernetesCrudPersistence: what fabric8's write handlers call, under the write lock.

  @Override
  public long requestResourceVersion() {
    return resourceVersion.incrementAndGet();
  }

  @Override
  public AttributeSet getKey(String path) {
    return pathAttributes(path);
  }

  @Override
  public Map.Entry<AttributeSet, String> findResource(AttributeSet attributes) {
    Table table = tables.get(tableKey(attributes));
    if (table == null) {
      return null;
    }
    List<Stored> found = table.select(attributes);
    return found.isEmpty()
        ? null
        : new AbstractMap.SimpleImmutableEntry<>(found.get(0).attributes(), found.get(0).json());
  }

  @Override
  public boolean isStatusSubresourceEnabledForResource(String path) {
    return crds.isStatusSubresourceEnabledForResource(extractor.fromKubernetesPath(path));
  }

  /**
   * The tree of a body the PUT handler has just parsed for validation (handed out once; fabric8
   * then modifies it into the stored object), otherwise a fresh parse (with {@link #TREES}; what it
   * cannot parse gets fabric8's own error).
   */
  @Override
  public JsonNode asNode(String json) throws KubernetesCrudDispatcherException {
    if (json == parsedBody && parsedBodyTree != null) {
      JsonNode tree = parsedBodyTree;
      parsedBody = null;
      parsedBodyTree = null;
      return tree;
    }
    try {
      return TREES.readTree(json);
    } catch (JacksonException e) {
      return KubernetesCrudPersistence.super.asNode(json);
    }
  }

  /**
   * fabric8 bumps the generation when a JSON diff of the two objects has an operation outside
   * {@code /metadata} and {@code /status}: the same as a top-level field other than those two that
   * differs, which is what this checks without building the diff. (A diff may also express a change
   * as a move out of the spec into the metadata, which fabric8 then does not count; the API server
   * does, and so does this.)
   */
  @Override
  public void touchGeneration(JsonNode current, JsonNode updated) {
    if (!cheapUpdates) {
      KubernetesCrudPersistence.super.touchGeneration(current, updated);
      return;
    }
    if (specChanged(current, updated)) {
      ((ObjectNode) updated.get("metadata"))
          .put("generation", current.path("metadata").path("generation").asInt(0) + 1);
    }
  }

  /**
   * fabric8 gives an update a new resourceVersion when a JSON diff of the two objects is not empty,
   * that is when they are not equal; it also keeps the updated tree for {@link #processEvent}.
   */
  @Override
  public void touchResourceVersion(JsonNode current, JsonNode updated) {
    if (!cheapUpdates) {
      KubernetesCrudPersistence.super.touchResourceVersion(current, updated);
      return;
    }
    if (!current.equals(updated)) {
      ((ObjectNode) updated.get("metadata"))
          .put("resourceVersion", String.valueOf(requestResourceVersion()));
    }
    updatedTree = updated;
  }

  private static boolean specChanged(JsonNode current, JsonNode updated) {
    for (String field : current.propertyNames()) {
      if (!field.equals("metadata")
          && !field.equals("status")
          && !current.get(field).equals(updated.get(field))) {
        return true;
      }
    }
    for (String field : updated.propertyNames()) {
      if (!field.equals("metadata") && !field.equals("status") && !current.has(field)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void processEvent(
      String path,
      AttributeSet pathAttributes,
      AttributeSet oldAttributes,
      GenericKubernetesResource resource,
      String newState) {
    if (dryRun) {
      updatedTree = null;
      return;
    }
    Stored existing = null;
    if (oldAttributes != null) {
      Table oldTable = tables.get(tableKey(oldAttributes));
      existing = oldTable == null ? null : oldTable.objects.remove(objectKey(oldAttributes));
    }
    Table table = null;
    AttributeSet newAttributes = null;
    long version;
    if (newState != null) {
      HasMetadata object = resource;
      if (object == null && updatedTree != null) {
        // fabric8's update handlers store the tree they just touched, as newState.
        object = head(updatedTree);
      }
      updatedTree = null;
      if (object == null) {
        object = Serialization.unmarshal(newState, GenericKubernetesResource.class);
      }
      newAttributes = extractor.extract(object);
      if (!newAttributes.containsKey(KubernetesAttributesExtractor.PLURAL)) {
        newAttributes = AttributeSet.merge(pathAttributes, newAttributes);
      }
      table = tables.computeIfAbsent(tableKey(newAttributes), k -> new Table());
      table.objects.put(objectKey(newAttributes), new Stored(newAttributes, newState));
      table.learnKind(object);
      version = parseVersion(object.getMetadata().getResourceVersion());
    } else {
      version = requestResourceVersion();
    }
    String oldState = existing == null ? null : existing.json();
    if (oldState == null ? newState == null : oldState.equals(newState)) {
      return;
    }
    if (table == null) {
      table = tables.computeIfAbsent(tableKey(oldAttributes), k -> new Table());
    }
    Change change =
        new Change(
            version < 0 ? resourceVersion.get() : version,
            oldAttributes,
            oldState,
            newAttributes,
            newState);
    table.record(change, historyLimit);
    for (StoreWatch watch : table.watches) {
      if (!watch.deliver(change)) {
        watch.bookmark(table, resourceVersion.get(), bookmarkIntervalNanos);
      }
    }
    crds.process(path, newState != null ? newState : oldState, newState == null);
  }

  @Override
  public void reset() {
    lock.writeLock().lock();
    try {
      tables.values().forEach(t -> t.watches.forEach(StoreWatch::close));
      tables.clear();
      crds.reset();
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public void shutdown() {
    reset();
  }

  // The store.

  /** One stored object: its attributes (for matching) and its JSON as served. */
  record Stored(AttributeSet attributes, String json) {}

  /**
   * One change of a resource type, for the watches: the object's attributes and JSON before (null
   * when created) and after (null when deleted), and the change's resourceVersion.
   */
  static final class Change {
    final long resourceVersion;
    final AttributeSet oldAttributes;
    final String oldState;
    final AttributeSet newAttributes;
    final String newState;
    private String deletedState;

    Change(
        long resourceVersion,
        AttributeSet oldAttributes,
        String oldState,
        AttributeSet newAttributes,
        String newState) {
      this.resourceVersion = resourceVersion;
      this.oldAttributes = oldAttributes;
      this.oldState = oldState;
      this.newAttributes = newAttributes;
      this.newState = newState;
    }

    /**
     * The object of a DELETED event for this change: the last state with the change's
     * resourceVersion, as the API server sends it. Encoded on first use, under the store's lock.
     */
    String deletedState() {
      if (deletedState == null) {
        deletedState = WatchEvents.withResourceVersion(oldState, resourceVersion);
      }
      return deletedState;
    }
  }

  /** The objects of one resource type, its recent changes and the watches on it. */
  static final class Table {
    /** By {@code namespace/name} (cluster-scoped: {@code name}), in the API server's order. */
    final NavigableMap<String, Stored> objects = new TreeMap<>();

    final ArrayDeque<Change> history = new ArrayDeque<>();
    final Set<StoreWatch> watches = ConcurrentHashMap.newKeySet();

    /** The resourceVersion of the newest change dropped from the history (0: none dropped). */
    long compactedThrough;

    /** The kind and apiVersion of the type, for bookmarks, once an object has shown them. */
    String kind;

    String apiVersion;

    List<Stored> select(AttributeSet query) {
      String namespace = value(query, NAMESPACE);
      String name = value(query, NAME);
      if (name == null) {
        // A watch or list by field selector metadata.name=<name>.
        Attribute byField = query.getAttribute(KubernetesAttributesExtractor.METADATA_NAME);
        if (byField != null && byField.getType() == AttributeType.WITH) {
          name = value(query, KubernetesAttributesExtractor.METADATA_NAME);
        }
      }
      if (name != null) {
        Stored one = objects.get(namespace == null ? name : namespace + "/" + name);
        if (one != null && one.attributes().matches(query)) {
          return List.of(one);
        }
        if (namespace != null) {
          return List.of();
        }
      }
      Collection<Stored> candidates =
          namespace == null
              ? objects.values()
              : objects.subMap(namespace + "/", namespace + "0").values();
      List<Stored> matching = new ArrayList<>();
      for (Stored candidate : candidates) {
        if (candidate.attributes().matches(query)) {
          matching.add(candidate);
        }
      }
      return matching;
    }

    void record(Change change, int limit) {
      history.addLast(change);
      while (history.size() > limit) {
        compactedThrough = history.removeFirst().resourceVersion;
      }
    }

    void learnKind(HasMetadata object) {
      if (kind == null && object.getKind() != null && object.getApiVersion() != null) {
        kind = object.getKind();
        apiVersion = object.getApiVersion();
      }
    }
  }

  /** {@code api/version/plural} of a path's or an object's attributes. */
  static String tableKey(AttributeSet attributes) {
    String api = value(attributes, KubernetesAttributesExtractor.API);
    String version = value(attributes, KubernetesAttributesExtractor.VERSION);
    String plural = value(attributes, KubernetesAttributesExtractor.PLURAL);
    return (api == null ? "" : api)
        + "/"
        + (version == null ? "" : version)
        + "/"
        + (plural == null ? "" : plural);
  }

  private static String objectKey(AttributeSet attributes) {
    String namespace = value(attributes, NAMESPACE);
    String name = value(attributes, NAME);
    return namespace == null ? name : namespace + "/" + name;
  }

  private static String value(AttributeSet attributes, String key) {
    Attribute attribute = attributes.getAttribute(key);
    if (attribute == null || attribute.getValues().size() != 1) {
      return null;
    }
    Object value = attribute.getValues().get(0);
    return value == null ? null : value.toString();
  }

  private static List<String> jsonOf(List<Stored> items) {
    List<String> json = new ArrayList<>(items.size());
    for (Stored item : items) {
      json.add(item.json());
    }
    return json;
  }

  /** A resourceVersion as a number, or -1 when it is not one. */
  static long parseVersion(String version) {
    if (version == null || version.isEmpty() || version.length() > 18) {
      return -1;
    }
    for (int i = 0; i < version.length(); i++) {
      if (!Character.isDigit(version.charAt(i))) {
        return -1;
      }
    }
    return Long.parseLong(version);
  }

  /**
   * fabric8's attributes of a request path (type, namespace, name, field selector) with its label
   * selector parsed in full by {@link LabelSelector}.
   */
  private AttributeSet pathAttributes(String path) {
    String selector = queryParameters(path).get("labelSelector");
    if (selector == null) {
      return extractor.fromPath(path);
    }
    return extractor
        .fromPath(withoutParameter(path, "labelSelector"))
        .add(LabelSelector.parse(selector).toArray(new Attribute[0]));
  }

  private static String withoutParameter(String path, String name) {
    int query = path.indexOf('?');
    StringBuilder kept = new StringBuilder(path.substring(0, query));
    char separator = '?';
    for (String pair : path.substring(query + 1).split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      if (!pair.isEmpty() && !key.equals(name)) {
        kept.append(separator).append(pair);
        separator = '&';
      }
    }
    return kept.toString();
  }

  private static boolean isWatch(String path) {
    int query = path.indexOf('?');
    return query >= 0 && "true".equals(queryParameters(path).get("watch"));
  }

  static Map<String, String> queryParameters(String path) {
    int query = path.indexOf('?');
    if (query < 0) {
      return Map.of();
    }
    Map<String, String> parameters = new HashMap<>();
    for (String pair : path.substring(query + 1).split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      parameters.put(
          URLDecoder.decode(key, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return parameters;
  }

  private static MockResponse notFound(AttributeSet query) {
    String plural = value(query, KubernetesAttributesExtractor.PLURAL);
    return status(404, "NotFound", plural + " \"" + value(query, NAME) + "\" not found");
  }

  private static MockResponse status(int code, String reason, String message) {
    Status status =
        new StatusBuilder()
            .withStatus("Failure")
            .withCode(code)
            .withReason(reason)
            .withMessage(message)
            .build();
    return json(new MockResponse().setResponseCode(code).setBody(Serialization.asJson(status)));
  }

  private static MockResponse json(MockResponse response) {
    return response.setHeader("Content-Type", "application/json");
  }

  /** Encodings of watch events. */
  static final class WatchEvents {
    private WatchEvents() {}

    static String event(String type, String objectJson) {
      return "{\"type\":\"" + type + "\",\"object\":" + objectJson + "}";
    }

    static String bookmark(String apiVersion, String kind, long resourceVersion) {
      return event(
          "BOOKMARK",
          "{\"kind\":\""
              + kind
              + "\",\"apiVersion\":\""
              + apiVersion
              + "\",\"metadata\":{\"resourceVersion\":\""
              + resourceVersion
              + "\"}}");
    }

    static String expired(String message) {
      Status status =
          new StatusBuilder()
              .withStatus("Failure")
              .withCode(410)
              .withReason("Expired")
              .withMessage(message)
              .build();
      return event("ERROR", Serialization.asJson(status));
    }

    static String withResourceVersion(String json, long resourceVersion) {
      JsonNode node = TREES.readTree(json);
      JsonNode metadata = node.path("metadata");
      if (metadata instanceof ObjectNode m) {
        m.put("resourceVersion", String.valueOf(resourceVersion));
      }
      return TREES.writeValueAsString(node);
    }
  }
}
