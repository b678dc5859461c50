package dev.cairn.localstack;

import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;

/**
 * One client's watch on an {@link IndexedCrudDispatcher}, over the WebSocket the mock server
 * upgrades the watch request to: which objects it selects ({@code query}: type, namespace, name,
 * label and field selectors, matched as fabric8 matches them), where it starts ({@code since}: the
 * request's resourceVersion, null or empty when absent) and whether it accepts bookmarks.
 *
 * <p>The store calls {@link #deliver}, {@link #bookmark} and {@link #send} under its lock, on the
 * thread that changed it (the server's event loop), so events leave in resourceVersion order and a
 * send never waits. The WebSocket callbacks never block: a close only unregisters the watch.
 */
final class StoreWatch extends WebSocketListener {

  private final IndexedCrudDispatcher store;
  private final String tableKey;
  private final AttributeSet query;
  private final String since;
  private final boolean bookmarks;
  private volatile WebSocket socket;
  private volatile boolean closed;
  private long lastSentNanos;

  StoreWatch(
      IndexedCrudDispatcher store,
      String tableKey,
      AttributeSet query,
      String since,
      boolean bookmarks) {
    this.store = store;
    this.tableKey = tableKey;
    this.query = query;
    this.since = since;
    this.bookmarks = bookmarks;
  }

  String tableKey() {
    return tableKey;
  }

  AttributeSet query() {
    return query;
  }

  String since() {
    return since;
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    socket = webSocket;
    lastSentNanos = System.nanoTime();
    store.open(this);
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    // The client's close frame: answer it (closing an already closed socket does nothing).
    closed = true;
    webSocket.close(code, reason);
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    closed = true;
    store.closed(this);
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable error, Response response) {
    closed = true;
    store.closed(this);
    webSocket.close(1011, "watch failed");
  }

  /**
   * Sends a change as this watch sees it: MODIFIED when the object matched before and after,
   * DELETED when it no longer matches (or is gone), ADDED when it starts to match.
   *
   * @return false when the change does not concern this watch
   */
  boolean deliver(IndexedCrudDispatcher.Change change) {
    boolean before = change.oldAttributes != null && change.oldAttributes.matches(query);
    boolean after = change.newAttributes != null && change.newAttributes.matches(query);
    if (before && after) {
      send(IndexedCrudDispatcher.WatchEvents.event("MODIFIED", change.newState));
    } else if (before) {
      send(IndexedCrudDispatcher.WatchEvents.event("DELETED", change.deletedState()));
    } else if (after) {
      send(IndexedCrudDispatcher.WatchEvents.event("ADDED", change.newState));
    } else {
      return false;
    }
    return true;
  }

  /**
   * Tells a watch that accepts bookmarks, at most once per {@code intervalNanos}, that the type has
   * reached {@code resourceVersion}, so it resumes from there and not from its last own event.
   */
  void bookmark(IndexedCrudDispatcher.Table table, long resourceVersion, long intervalNanos) {
    if (bookmarks && table.kind != null && System.nanoTime() - lastSentNanos >= intervalNanos) {
      send(
          IndexedCrudDispatcher.WatchEvents.bookmark(
              table.apiVersion, table.kind, resourceVersion));
    }
  }

  /** Sends a 410 Expired error event and ends the watch, as the API server does. */
  void expire(String errorEvent) {
    send(errorEvent);
    close();
  }

  void send(String event) {
    WebSocket ws = socket;
    if (closed || ws == null) {
      return;
    }
    lastSentNanos = System.nanoTime();
    if (!ws.send(event)) {
      closed = true;
      store.closed(this);
    }
  }

  /** Ends the watch from the server side. */
  void close() {
    closed = true;
    WebSocket ws = socket;
    if (ws != null) {
      ws.close(1000, "watch ended by the server");
    }
  }
}
