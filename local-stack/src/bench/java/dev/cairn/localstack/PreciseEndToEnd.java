package dev.cairn.localstack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The loop of Kafka's {@code org.apache.kafka.tools.EndToEndLatency} (kafka-tools 4.1.2, read
 * from its bytecode), timed in nanoseconds: {@link KafkaEndToEnd} runs the tool itself, whose
 * percentiles are whole milliseconds, truncated, so at a p99 of 3 ms it cannot tell 3.0 from 3.9
 * ms. The same clients with the tool's settings (producer acks=1, linger 0; consumer assigned to
 * the topic's one partition at its end, {@code fetch.max.wait.ms} 0, no auto commit), the same
 * round trip per record (send, wait for the ack, one poll that must return the record; one
 * commit at the end), and the same percentile rule (the sorted latencies at index {@code n ×
 * q}).
 *
 * @param messages how many round trips
 * @param avgMillis the mean
 * @param p50 the median, ms
 * @param p99 the 99th percentile, ms
 * @param p999 the 99.9th percentile, ms
 * @param seconds how long the round trips took, s
 * @param secondP99s the p99 of the round trips begun in each whole second of the run, ms: how
 *     much the figure depends on which part of the stack's cycle (the probers' sweeps every
 *     interval) a shorter run would have fallen on
 */
record PreciseEndToEnd(
    int messages, double avgMillis, double p50, double p99, double p999, double seconds,
    List<Double> secondP99s) {

  static PreciseEndToEnd run(String bootstrapServers, String topic, int messages, int size) {
    Properties admin = new Properties();
    admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    try (Admin a = Admin.create(admin)) {
      if (!a.listTopics().names().get().contains(topic)) {
        a.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
      }
    } catch (Exception e) {
      throw new IllegalStateException("could not create " + topic, e);
    }
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    c.put(ConsumerConfig.GROUP_ID_CONFIG, "cairn-bench-e2e-" + System.nanoTime());
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "0");
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(Long.MAX_VALUE));
    p.put(ProducerConfig.ACKS_CONFIG, "1");
    long[] nanos = new long[messages];
    long[] begins = new long[messages];
    long total = 0;
    long start = System.nanoTime();
    try (KafkaConsumer<byte[], byte[]> consumer =
            new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(i -> new TopicPartition(i.topic(), i.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      partitions.forEach(consumer::position);
      Random random = new Random(0);
      for (int i = 0; i < messages; i++) {
        byte[] value = new byte[size];
        for (int b = 0; b < size; b++) {
          value[b] = (byte) ('a' + random.nextInt(26));
        }
        long begin = System.nanoTime();
        producer.send(new ProducerRecord<>(topic, value)).get();
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofSeconds(60));
        long elapsed = System.nanoTime() - begin;
        if (records.count() != 1
            || !Arrays.equals(records.iterator().next().value(), value)) {
          throw new IllegalStateException(
              "round trip " + i + " returned " + records.count() + " records, not its own");
        }
        nanos[i] = elapsed;
        begins[i] = begin - start;
        total += elapsed;
      }
      consumer.commitSync();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a send failed", e);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    List<Double> secondP99s = new ArrayList<>();
    for (int from = 0; from < messages; ) {
      long second = begins[from] / 1_000_000_000L;
      int to = from;
      while (to < messages && begins[to] / 1_000_000_000L == second) {
        to++;
      }
      if (to - from >= 100 && to < messages) { // whole seconds with enough round trips
        long[] slice = Arrays.copyOfRange(nanos, from, to);
        Arrays.sort(slice);
        secondP99s.add(slice[(int) (slice.length * 0.99)] / 1e6);
      }
      from = to;
    }
    Arrays.sort(nanos);
    return new PreciseEndToEnd(
        messages,
        total / 1e6 / messages,
        nanos[(int) (messages * 0.5)] / 1e6,
        nanos[(int) (messages * 0.99)] / 1e6,
        nanos[(int) (messages * 0.999)] / 1e6,
        seconds,
        List.copyOf(secondP99s));
  }

}
