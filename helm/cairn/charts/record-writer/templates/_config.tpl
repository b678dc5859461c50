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
    ttl: {{ printf "%ds" (int64 $g.nsRecordTTL) | quote }}
    peer-geo-tags: {{ include "cairn.peerGeoTags" $g }}
    {{- if $g.clusterExposedIPs }}
    addresses: {{ toJson $g.clusterExposedIPs }}
    {{- else }}
    {{- /* The responder's DNS Service, named as the responder chart names it (set
           writer.delegation.service in record-writer.config after a dns-responder.fullnameOverride). */}}
    service: {{ printf "%s/%s" .Release.Namespace (include "cairn.dnsServiceName" (include "cairn.defaultFullname" (dict "root" . "service" "dns-responder"))) | quote }}
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
