{{/* The settings the chart generates for topology-watcher.yaml (docs/configuration.md#topology-watcher-watcher). */}}
{{- define "topology-watcher.config" -}}
watcher:
  # One Lease per release: two releases in one namespace elect their leaders apart. Release
  # "cairn" keeps the service's default name (cairn-topology-watcher).
  leader-election:
    lease-name: {{ include "cairn.fullname" . | quote }}
  cluster-name: {{ .Values.global.clusterGeoTag | default .Release.Name | quote }}
  topics:
    {{- include "cairn.topicSettings" . | nindent 4 }}
{{- end -}}
