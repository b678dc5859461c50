package dev.cairn.dnsresponder.zone;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An immutable hash map whose changed copies share every part that did not change: a hash array
 * mapped trie (Bagwell; the structure of Clojure's and Scala's persistent maps). A copy with one
 * entry more, less or replaced costs a path of at most seven small nodes, not a copy of the map, so
 * a snapshot that differs from the one before in k names costs O(k) to make, however many names it
 * holds.
 *
 * <p>An {@link Editor} makes many changes at once: nodes it created itself are changed in place
 * until {@link Editor#done()}, after which nothing it made changes again. A map is safe to read
 * from any number of threads; an editor belongs to one thread.
 *
 * <p>Keys and values must not be {@code null}.
 */
public final class PersistentMap<K, V> {

  private static final PersistentMap<?, ?> EMPTY = new PersistentMap<>(null, 0);

  private static final int BITS = 5;
  private static final int MASK = (1 << BITS) - 1;

  private final Node root;
  private final int size;

  private PersistentMap(Node root, int size) {
    this.root = root;
    this.size = size;
  }

  /** The empty map. */
  @SuppressWarnings("unchecked")
  public static <K, V> PersistentMap<K, V> empty() {
    return (PersistentMap<K, V>) EMPTY;
  }

  /** The value under {@code key}, or {@code null}. */
  @SuppressWarnings("unchecked")
  public V get(Object key) {
    return (V) find(root, key);
  }

  /** The value under {@code key} in the trie below {@code root}, or {@code null}. */
  private static Object find(Node root, Object key) {
    if (root == null || key == null) {
      return null;
    }
    int hash = hash(key);
    Node node = root;
    int shift = 0;
    while (true) {
      if (node instanceof Branch branch) {
        int bit = bit(hash, shift);
        if ((branch.bitmap & bit) == 0) {
          return null;
        }
        int at = 2 * branch.index(bit);
        Object k = branch.array[at];
        Object v = branch.array[at + 1];
        if (k == null) {
          node = (Node) v;
          shift += BITS;
        } else {
          return key.equals(k) ? v : null;
        }
      } else {
        Collision collision = (Collision) node;
        if (collision.hash != hash) {
          return null;
        }
        int at = collision.find(key);
        return at < 0 ? null : collision.array[at + 1];
      }
    }
  }

  /** Whether {@code key} has a value. */
  public boolean containsKey(Object key) {
    return get(key) != null;
  }

  /** The number of entries. */
  public int size() {
    return size;
  }

  /** Whether there are no entries. */
  public boolean isEmpty() {
    return size == 0;
  }

  /** This map with {@code key} mapped to {@code value}; this map itself when it already is. */
  public PersistentMap<K, V> with(K key, V value) {
    Editor<K, V> editor = edit();
    editor.put(key, value);
    PersistentMap<K, V> next = editor.done();
    return editor.changed() ? next : this;
  }

  /** This map without {@code key}; this map itself when it has no such key. */
  public PersistentMap<K, V> without(Object key) {
    Editor<K, V> editor = edit();
    editor.remove(key);
    PersistentMap<K, V> next = editor.done();
    return editor.changed() ? next : this;
  }

  /** An editor starting from this map (which it never changes). */
  public Editor<K, V> edit() {
    return new Editor<>(root, size);
  }

  /** Calls {@code action} with every entry, in no particular order. */
  @SuppressWarnings("unchecked")
  public void forEach(BiConsumer<? super K, ? super V> action) {
    Objects.requireNonNull(action, "action");
    if (root != null) {
      root.forEach((BiConsumer<Object, Object>) action);
    }
  }

  /** A read-only {@link Map} view (no copy); its iteration order is unspecified. */
  public Map<K, V> asMap() {
    return new View<>(this);
  }

  /**
   * Changes a map in place, without copying what it changes more than once: the nodes it creates
   * belong to it until {@link #done()}. Not thread-safe.
   */
  public static final class Editor<K, V> {
    private final Edit edit = new Edit();
    private Node root;
    private int size;
    private boolean changed;

    private Editor(Node root, int size) {
      this.root = root;
      this.size = size;
    }

    /** The value under {@code key} as edited so far, or {@code null}. */
    @SuppressWarnings("unchecked")
    public V get(Object key) {
      return (V) find(root, key);
    }

    /** The number of entries as edited so far. */
    public int size() {
      return size;
    }

    /** Maps {@code key} to {@code value}. */
    public void put(K key, V value) {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
      check();
      Box box = new Box();
      Node next =
          root == null
              ? Branch.EMPTY.put(edit, 0, hash(key), key, value, box)
              : root.put(edit, 0, hash(key), key, value, box);
      if (box.sizeDelta != 0 || next != root || box.replaced) {
        changed = true;
      }
      root = next;
      size += box.sizeDelta;
    }

    /** Removes {@code key} (nothing when absent). */
    public void remove(Object key) {
      check();
      if (root == null || key == null) {
        return;
      }
      Box box = new Box();
      Node next = root.remove(edit, 0, hash(key), key, box);
      if (box.sizeDelta != 0) {
        changed = true;
      }
      root = next;
      size += box.sizeDelta;
    }

    /** The edited map; the editor cannot be used afterwards. */
    public PersistentMap<K, V> done() {
      check();
      edit.live = false;
      return size == 0 ? empty() : new PersistentMap<>(root, size);
    }

    /** Whether anything was put or removed that made a difference. */
    public boolean changed() {
      return changed;
    }

    private void check() {
      if (!edit.live) {
        throw new IllegalStateException("the editor is done");
      }
    }
  }

  /** The token that marks nodes an editor may still change in place. */
  private static final class Edit {
    boolean live = true;
  }

  /** What a put or remove did: the size change, and whether a value was replaced. */
  private static final class Box {
    int sizeDelta;
    boolean replaced;
  }

  private static int hash(Object key) {
    int h = key.hashCode();
    return h ^ (h >>> 16);
  }

  private static int bit(int hash, int shift) {
    return 1 << ((hash >>> shift) & MASK);
  }

  private abstract static class Node {
    /** The node's editor, or {@code null}: an editor changes in place only its own live nodes. */
    final Edit edit;

    Node(Edit edit) {
      this.edit = edit;
    }

    boolean editableBy(Edit e) {
      return edit != null && edit == e && e.live;
    }

    abstract Node put(Edit e, int shift, int hash, Object key, Object value, Box box);

    /** The node without {@code key}, or {@code null} when nothing is left. */
    abstract Node remove(Edit e, int shift, int hash, Object key, Box box);

    abstract void forEach(BiConsumer<Object, Object> action);
  }

  /**
   * Up to 32 slots selected by five bits of the hash; a slot holds a key and its value, or {@code
   * null} and the node below.
   */
  private static final class Branch extends Node {
    static final Branch EMPTY = new Branch(null, 0, new Object[0]);

    int bitmap;
    Object[] array;

    Branch(Edit edit, int bitmap, Object[] array) {
      super(edit);
      this.bitmap = bitmap;
      this.array = array;
    }

    int index(int bit) {
      return Integer.bitCount(bitmap & (bit - 1));
    }

    @Override
    Node put(Edit e, int shift, int hash, Object key, Object value, Box box) {
      int bit = bit(hash, shift);
      int at = 2 * index(bit);
      if ((bitmap & bit) != 0) {
        Object k = array[at];
        Object v = array[at + 1];
        if (k == null) {
          Node child = (Node) v;
          Node next = child.put(e, shift + BITS, hash, key, value, box);
          return next == child ? this : set(e, at + 1, next);
        }
        if (key.equals(k)) {
          if (v == value) {
            return this;
          }
          box.replaced = true;
          return set(e, at + 1, value);
        }
        box.sizeDelta = 1;
        Node below = pair(e, shift + BITS, k, v, hash, key, value);
        Branch target = editable(e);
        target.array[at] = null;
        target.array[at + 1] = below;
        return target;
      }
      box.sizeDelta = 1;
      Object[] grown = new Object[array.length + 2];
      System.arraycopy(array, 0, grown, 0, at);
      grown[at] = key;
      grown[at + 1] = value;
      System.arraycopy(array, at, grown, at + 2, array.length - at);
      if (editableBy(e)) {
        array = grown;
        bitmap |= bit;
        return this;
      }
      return new Branch(e, bitmap | bit, grown);
    }

    @Override
    Node remove(Edit e, int shift, int hash, Object key, Box box) {
      int bit = bit(hash, shift);
      if ((bitmap & bit) == 0) {
        return this;
      }
      int at = 2 * index(bit);
      Object k = array[at];
      Object v = array[at + 1];
      if (k == null) {
        Node child = (Node) v;
        Node next = child.remove(e, shift + BITS, hash, key, box);
        if (next == child) {
          return this;
        }
        if (next != null) {
          return set(e, at + 1, next);
        }
      } else if (!key.equals(k)) {
        return this;
      } else {
        box.sizeDelta = -1;
      }
      // The slot goes: its key, or its node that is now empty.
      if (bitmap == bit) {
        return null;
      }
      Object[] shrunk = new Object[array.length - 2];
      System.arraycopy(array, 0, shrunk, 0, at);
      System.arraycopy(array, at + 2, shrunk, at, array.length - at - 2);
      if (editableBy(e)) {
        array = shrunk;
        bitmap &= ~bit;
        return this;
      }
      return new Branch(e, bitmap & ~bit, shrunk);
    }

    private Branch set(Edit e, int i, Object value) {
      Branch target = editable(e);
      target.array[i] = value;
      return target;
    }

    private Branch editable(Edit e) {
      return editableBy(e) ? this : new Branch(e, bitmap, array.clone());
    }

    @Override
    void forEach(BiConsumer<Object, Object> action) {
      for (int i = 0; i < array.length; i += 2) {
        if (array[i] == null) {
          ((Node) array[i + 1]).forEach(action);
        } else {
          action.accept(array[i], array[i + 1]);
        }
      }
    }
  }

  /** Two keys at {@code shift} and below, in a branch or (same hash) a collision node. */
  private static Node pair(
      Edit e, int shift, Object k1, Object v1, int hash2, Object k2, Object v2) {
    int hash1 = hash(k1);
    if (hash1 == hash2) {
      return new Collision(e, hash1, new Object[] {k1, v1, k2, v2});
    }
    Box ignored = new Box();
    return Branch.EMPTY.put(e, shift, hash1, k1, v1, ignored).put(e, shift, hash2, k2, v2, ignored);
  }

  /** Keys whose whole hashes are equal, in pairs of key and value. */
  private static final class Collision extends Node {
    final int hash;
    Object[] array;

    Collision(Edit edit, int hash, Object[] array) {
      super(edit);
      this.hash = hash;
      this.array = array;
    }

    int find(Object key) {
      for (int i = 0; i < array.length; i += 2) {
        if (key.equals(array[i])) {
          return i;
        }
      }
      return -1;
    }

    @Override
    Node put(Edit e, int shift, int hash, Object key, Object value, Box box) {
      if (hash != this.hash) {
        // Another hash meets these keys here: a branch above them tells them apart.
        Branch above = new Branch(e, bit(this.hash, shift), new Object[] {null, this});
        return above.put(e, shift, hash, key, value, box);
      }
      int at = find(key);
      if (at >= 0) {
        if (array[at + 1] == value) {
          return this;
        }
        box.replaced = true;
        Object[] next = editableBy(e) ? array : array.clone();
        next[at + 1] = value;
        return next == array ? this : new Collision(e, hash, next);
      }
      box.sizeDelta = 1;
      Object[] grown = Arrays.copyOf(array, array.length + 2);
      grown[array.length] = key;
      grown[array.length + 1] = value;
      if (editableBy(e)) {
        array = grown;
        return this;
      }
      return new Collision(e, hash, grown);
    }

    @Override
    Node remove(Edit e, int shift, int hash, Object key, Box box) {
      if (hash != this.hash) {
        return this;
      }
      int at = find(key);
      if (at < 0) {
        return this;
      }
      box.sizeDelta = -1;
      if (array.length == 2) {
        return null;
      }
      Object[] shrunk = new Object[array.length - 2];
      System.arraycopy(array, 0, shrunk, 0, at);
      System.arraycopy(array, at + 2, shrunk, at, array.length - at - 2);
      if (editableBy(e)) {
        array = shrunk;
        return this;
      }
      return new Collision(e, hash, shrunk);
    }

    @Override
    void forEach(BiConsumer<Object, Object> action) {
      for (int i = 0; i < array.length; i += 2) {
        action.accept(array[i], array[i + 1]);
      }
    }
  }

  /** The read-only {@link Map} over a persistent map. */
  private static final class View<K, V> extends AbstractMap<K, V> {
    private final PersistentMap<K, V> map;

    View(PersistentMap<K, V> map) {
      this.map = map;
    }

    @Override
    public V get(Object key) {
      return map.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
      return map.containsKey(key);
    }

    @Override
    public int size() {
      return map.size;
    }

    @Override
    public void forEach(BiConsumer<? super K, ? super V> action) {
      map.forEach(action);
    }

    @Override
    public Set<Map.Entry<K, V>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public Iterator<Map.Entry<K, V>> iterator() {
          return new Entries<>(map.root);
        }

        @Override
        public int size() {
          return map.size;
        }
      };
    }
  }

  /**
   * Depth-first over the trie, with a stack of the nodes being walked and the next slot of each.
   */
  private static final class Entries<K, V> implements Iterator<Map.Entry<K, V>> {
    private final ArrayDeque<Object[]> arrays = new ArrayDeque<>();
    private final ArrayDeque<int[]> positions = new ArrayDeque<>();
    private Map.Entry<K, V> next;

    Entries(Node root) {
      if (root != null) {
        push(root);
      }
      advance();
    }

    private void push(Node node) {
      arrays.push(node instanceof Branch b ? b.array : ((Collision) node).array);
      positions.push(new int[] {0});
    }

    @SuppressWarnings("unchecked")
    private void advance() {
      next = null;
      while (!arrays.isEmpty()) {
        Object[] array = arrays.peek();
        int[] position = positions.peek();
        if (position[0] >= array.length) {
          arrays.pop();
          positions.pop();
          continue;
        }
        int at = position[0];
        position[0] += 2;
        if (array[at] == null) {
          push((Node) array[at + 1]);
        } else {
          next = new AbstractMap.SimpleImmutableEntry<>((K) array[at], (V) array[at + 1]);
          return;
        }
      }
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public Map.Entry<K, V> next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      Map.Entry<K, V> current = next;
      advance();
      return current;
    }
  }
}
