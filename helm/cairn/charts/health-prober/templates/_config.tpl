{{/* The settings the chart generates for health-prober.yaml (docs/configuration.md#health-prober-prober). */}}
{{- define "health-prober.config" -}}
{{- $g := .Values.global -}}
prober:
  geo-tag: {{ include "cairn.requiredGeoTag" . | quote }}
  topics:
    {{- include "cairn.topicSettings" . | nindent 4 }}
  {{- with $g.dnsResolver }}
  default-resolver: {{ . | quote }}
  {{- end }}
  default-split-brain-threshold: {{ printf "%ds" (int64 $g.splitBrainThresholdSeconds) | quote }}
  resolve-target-hostnames: {{ $g.resolveTargetHostnames }}
  {{- with $g.peers }}
  peers:
    {{- range . }}
    - geo-tag: {{ .geoTag | quote }}
      servers: {{ toJson .servers }}
    {{- end }}
  {{- end }}
  {{- if $g.edgeDNSServers }}
  delegation:
    edge-servers: {{ toJson $g.edgeDNSServers }}
    glue-prefix: {{ $g.glueAPrefix | quote }}
    geo-tags: {{ toJson ($g.extGslbsClusterGeoTags | default list) }}
    zones:
      {{- range $g.dnsZones }}
      - parent-zone: {{ required (printf "global.dnsZones: zone %s needs parentZone, because global.edgeDNSServers turns on peer discovery through zone delegation" .loadBalancedZone) .parentZone | quote }}
        load-balanced-zone: {{ .loadBalancedZone | quote }}
      {{- end }}
  {{- end }}
{{- end -}}
