{{/* The settings the chart generates for record-writer.yaml (docs/configuration.md#record-writer-writer). */}}
{{- define "record-writer.config" -}}
writer:
  # One Lease per release: two releases in one namespace elect their leaders apart. Release
  # "cairn" keeps the service's default name (cairn-record-writer).
  leader-election:
    lease-name: {{ include "cairn.fullname" . | quote }}
  topics:
    {{- include "cairn.topicSettings" . | nindent 4 }}
  {{- $g := .Values.global }}
  {{- if $g.publishDelegation }}
  delegation:
    enabled: true
    geo-tag: {{ include "cairn.requiredGeoTag" . | quote }}
    glue-prefix: {{ $g.glueAPrefix | quote }}
    ttl: {{ printf "%vs" $g.nsRecordTTL | quote }}
    peer-geo-tags: {{ include "cairn.peerGeoTags" $g }}
    {{- if $g.clusterExposedIPs }}
    addresses: {{ toJson $g.clusterExposedIPs }}
    {{- else }}
    service: {{ printf "%s/%s-dns-responder-dns" .Release.Namespace .Release.Name | quote }}
    {{- end }}
    zones:
      {{- if not $g.dnsZones }}
      {{- fail "global.publishDelegation needs global.dnsZones: the zones to delegate" }}
      {{- end }}
      {{- range $g.dnsZones }}
      - parent-zone: {{ required (printf "global.dnsZones: zone %s needs parentZone, because global.publishDelegation publishes its delegation" .loadBalancedZone) .parentZone | quote }}
        load-balanced-zone: {{ .loadBalancedZone | quote }}
      {{- end }}
  {{- end }}
{{- end -}}
