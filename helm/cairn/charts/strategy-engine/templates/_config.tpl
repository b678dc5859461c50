{{/* The settings the chart generates for strategy-engine.yaml (docs/configuration.md#strategy-engine-engine). */}}
{{- define "strategy-engine.config" -}}
{{- $g := .Values.global -}}
engine:
  # The topic prefix keeps two releases sharing one Kafka cluster in their own consumer groups.
  application-id: {{ printf "%scairn-strategy-engine" $g.topics.prefix | quote }}
  state-dir: /var/lib/cairn/strategy-engine
  topics:
    {{- include "cairn.topicSettings" . | nindent 4 }}
  {{- with $g.dnsResolver }}
  dns-resolver: {{ . | quote }}
  {{- end }}
  resolve-target-hostnames: {{ $g.resolveTargetHostnames }}
  gslb:
    geo-tag: {{ include "cairn.requiredGeoTag" . | quote }}
    split-brain-threshold: {{ printf "%ds" (int64 $g.splitBrainThresholdSeconds) | quote }}
    {{- with $g.dnsZones }}
    zones:
      {{- range . }}
      - {{ .loadBalancedZone | quote }}
      {{- end }}
    {{- end }}
    {{- with $g.clusterExposedIPs }}
    exposed-ips: {{ toJson . }}
    {{- end }}
{{- end -}}
