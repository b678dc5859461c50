{{/* The settings the chart generates for dns-responder.yaml (docs/configuration.md#dns-responder-responder). */}}
{{- define "dns-responder.config" -}}
{{- $g := .Values.global -}}
{{- if not $g.dnsZones -}}
{{- fail "global.dnsZones needs at least one loadBalancedZone: the dns-responder serves them (or set dns-responder.enabled=false)" -}}
{{- end -}}
responder:
  listen-address: 0.0.0.0
  port: 5353
  cluster-id: {{ $g.clusterGeoTag | default .Release.Name | quote }}
  snapshot-file: /var/lib/cairn/dns-responder/snapshot.json
  zones:
    {{- range $g.dnsZones }}
    - name: {{ .loadBalancedZone | quote }}
      {{- with .dnsZoneNegTTL }}
      negative-ttl: {{ printf "%ds" (int64 .) | quote }}
      {{- end }}
      {{- if and .parentZone $g.clusterGeoTag }}
      {{- /* The apex NS are the names the parent delegates to, as in k8gb. */}}
      ns:
        {{- range (include "cairn.nsNames" (dict "zone" . "global" $g) | fromJsonArray) }}
        - name: {{ . | quote }}
        {{- end }}
      {{- end }}
    {{- end }}
{{- end -}}
