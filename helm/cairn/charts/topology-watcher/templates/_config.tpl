{{/* The settings the chart generates for topology-watcher.yaml (docs/configuration.md#topology-watcher-watcher). */}}
{{- define "topology-watcher.config" -}}
watcher:
  cluster-name: {{ .Values.global.clusterGeoTag | default .Release.Name | quote }}
  topics:
    {{- include "cairn.topicSettings" . | nindent 4 }}
{{- end -}}
