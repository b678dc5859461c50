{{/*
Named templates shared by the umbrella chart and its service subcharts. Helm loads the named
templates of a chart and all its subcharts into one set, so each subchart's templates are a few
lines that call these with their own context: `.Chart.Name` is the service, `.Values` its values
and `.Values.global` the shared settings.
*/}}

{{/* The release-scoped name of this chart's objects: <release>-<service>, at most 63 characters. */}}
{{- define "cairn.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/*
Another service's name in this release, as cairn.fullname names it without a fullnameOverride:
(dict "root" . "service" "dns-responder").
*/}}
{{- define "cairn.defaultFullname" -}}
{{- if contains .service .root.Release.Name -}}
{{- .root.Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .root.Release.Name .service | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/*
Another service's name as the umbrella chart sees it, its fullnameOverride included:
(dict "root" . "service" "dns-responder"). For the umbrella's own templates (NOTES.txt), where
.Values holds each service's values under its name.
*/}}
{{- define "cairn.serviceFullname" -}}
{{- with (index .root.Values .service).fullnameOverride -}}
{{- . | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- include "cairn.defaultFullname" . -}}
{{- end -}}
{{- end -}}

{{- define "cairn.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "cairn.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "cairn.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: cairn
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/*
The bundled broker's Service and StatefulSet, named after the release so subcharts can find it.
At most 52 characters: the StatefulSet's pods carry the label controller-revision-hash,
<name>-<hash of up to 10 characters>, which must fit in 63, and so must <name>-headless.
*/}}
{{- define "cairn.kafkaName" -}}
{{- printf "%s-kafka" .Release.Name | trunc 52 | trimSuffix "-" -}}
{{- end -}}

{{/*
The dns-responder's DNS Service: its full name (a string) with -dns, a DNS label of at most 63
characters however long the release name is.
*/}}
{{- define "cairn.dnsServiceName" -}}
{{- printf "%s-dns" (. | trunc 59 | trimSuffix "-") -}}
{{- end -}}

{{- define "cairn.kafkaBootstrapServers" -}}
{{- .Values.global.kafka.bootstrapServers | default (printf "%s:9092" (include "cairn.kafkaName" .)) -}}
{{- end -}}

{{- define "cairn.image" -}}
{{- $registry := .Values.global.image.registry -}}
{{- $repository := .Values.image.repository -}}
{{- $tag := .Values.image.tag | default .Values.global.image.tag | default .Chart.AppVersion -}}
{{- if $registry -}}
{{- printf "%s/%s:%s" (trimSuffix "/" $registry) $repository $tag -}}
{{- else -}}
{{- printf "%s:%s" $repository $tag -}}
{{- end -}}
{{- end -}}

{{- define "cairn.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "cairn.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/*
The other clusters' geo tags, from extGslbsClusterGeoTags and peers, each once. Call with
.Values.global; renders a JSON list.
*/}}
{{- define "cairn.peerGeoTags" -}}
{{- $tags := list -}}
{{- range .extGslbsClusterGeoTags }}{{ $tags = append $tags . }}{{ end -}}
{{- range .peers }}{{ $tags = append $tags .geoTag }}{{ end -}}
{{- toJson ($tags | uniq) -}}
{{- end -}}

{{/* A zone name as the services normalise it (Hostnames.normalise): lower case, no trailing dot. */}}
{{- define "cairn.zoneName" -}}
{{- . | lower | trimSuffix "." -}}
{{- end -}}

{{/*
The name server names of a delegated zone, one per cluster (this one and the peers, sorted), as
k8gb names them: <glueAPrefix><geoTag>-<zone without the parent, dots as dashes>.<parent>
(DelegationZone.nsName). Call with (dict "zone" <a dnsZones entry> "global" .Values.global);
renders a JSON list.
*/}}
{{- define "cairn.nsNames" -}}
{{- $g := .global -}}
{{- $zone := .zone -}}
{{- $tags := prepend (include "cairn.peerGeoTags" $g | fromJsonArray) $g.clusterGeoTag -}}
{{- $parent := include "cairn.zoneName" $zone.parentZone -}}
{{- $label := trimSuffix (printf ".%s" $parent) (include "cairn.zoneName" $zone.loadBalancedZone) | replace "." "-" -}}
{{- $names := list -}}
{{- range ($tags | uniq) }}
{{- $names = append $names (printf "%s%s-%s.%s" $g.glueAPrefix . $label $parent) -}}
{{- end -}}
{{- toJson ($names | sortAlpha) -}}
{{- end -}}

{{- define "cairn.requiredGeoTag" -}}
{{- required (printf "global.clusterGeoTag is required by %s: this cluster's geo tag (k8gb clusterGeoTag), e.g. --set global.clusterGeoTag=eu" .Chart.Name) .Values.global.clusterGeoTag -}}
{{- end -}}

{{/* The topic settings every Kafka service binds under <prefix>.topics. */}}
{{- define "cairn.topicSettings" -}}
prefix: {{ .Values.global.topics.prefix | quote }}
partitions: {{ .Values.global.topics.partitions }}
replication-factor: {{ .Values.global.topics.replicationFactor }}
{{- end -}}

{{/*
The settings every service gets, before its own: the HTTP port the probes and the Service use,
the log level and format, and for the Kafka services the brokers.
*/}}
{{- define "cairn.baseConfig" -}}
server:
  port: 8080
logging:
  level:
    dev.cairn: {{ .Values.global.logLevel }}
{{- if ne (.Values.global.logFormat | default "text") "text" }}
  structured:
    format:
      console: {{ .Values.global.logFormat }}
{{- end }}
{{- if .usesKafka }}
spring:
  kafka:
    bootstrap-servers: {{ include "cairn.kafkaBootstrapServers" .ctx | quote }}
{{- end }}
{{- end -}}

{{/*
The rendered <service>.yaml: the base settings, then the service's generated settings (the named
template "<service>.config"), then the user's `config`, each merged over the one before.
Call with (dict "ctx" . "usesKafka" true|false).
*/}}
{{- define "cairn.serviceYaml" -}}
{{- $ctx := .ctx -}}
{{- $base := fromYaml (include "cairn.baseConfig" (dict "ctx" $ctx "usesKafka" .usesKafka "Values" $ctx.Values)) -}}
{{- $generated := fromYaml (include (printf "%s.config" $ctx.Chart.Name) $ctx) -}}
{{- $merged := mergeOverwrite $base $generated (deepCopy ($ctx.Values.config | default dict)) -}}
{{- toYaml $merged -}}
{{- end -}}

{{- define "cairn.configMap" -}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "cairn.fullname" .ctx }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "cairn.labels" .ctx | nindent 4 }}
data:
  {{ .ctx.Chart.Name }}.yaml: |
    {{- include "cairn.serviceYaml" . | nindent 4 }}
{{- end -}}

{{- define "cairn.serviceAccount" -}}
{{- if .Values.serviceAccount.create }}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "cairn.serviceAccountName" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "cairn.labels" . | nindent 4 }}
  {{- with .Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: {{ .Values.serviceAccount.automountToken }}
{{- end }}
{{- end -}}

{{/*
RBAC: a ClusterRole with `.clusterRules` bound to the service account, and, when `.leaseRules`
is set, a Role in the release namespace for the leader-election Lease.
Call with (dict "ctx" . "clusterRules" list "leaseRules" bool).
*/}}
{{- define "cairn.rbac" -}}
{{- $ctx := .ctx -}}
{{- if $ctx.Values.rbac.create }}
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ include "cairn.fullname" $ctx }}
  labels:
    {{- include "cairn.labels" $ctx | nindent 4 }}
rules:
  {{- toYaml .clusterRules | nindent 2 }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: {{ include "cairn.fullname" $ctx }}
  labels:
    {{- include "cairn.labels" $ctx | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: {{ include "cairn.fullname" $ctx }}
subjects:
  - kind: ServiceAccount
    name: {{ include "cairn.serviceAccountName" $ctx }}
    namespace: {{ $ctx.Release.Namespace }}
{{- if .leaseRules }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: {{ include "cairn.fullname" $ctx }}-leader-election
  namespace: {{ $ctx.Release.Namespace }}
  labels:
    {{- include "cairn.labels" $ctx | nindent 4 }}
rules:
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [get, create, update, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: {{ include "cairn.fullname" $ctx }}-leader-election
  namespace: {{ $ctx.Release.Namespace }}
  labels:
    {{- include "cairn.labels" $ctx | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: {{ include "cairn.fullname" $ctx }}-leader-election
subjects:
  - kind: ServiceAccount
    name: {{ include "cairn.serviceAccountName" $ctx }}
    namespace: {{ $ctx.Release.Namespace }}
{{- end }}
{{- end }}
{{- end -}}

{{/* The HTTP Service: Actuator (health, metrics, prometheus) and the explain APIs. */}}
{{- define "cairn.httpService" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "cairn.fullname" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "cairn.labels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "cairn.selectorLabels" . | nindent 4 }}
  ports:
    - name: http
      port: {{ .Values.service.port }}
      targetPort: http
      protocol: TCP
{{- end -}}

{{- define "cairn.serviceMonitor" -}}
{{- if .Values.global.serviceMonitor.enabled }}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ include "cairn.fullname" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "cairn.labels" . | nindent 4 }}
    {{- with .Values.global.serviceMonitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      {{- include "cairn.selectorLabels" . | nindent 6 }}
  endpoints:
    - port: http
      path: /actuator/prometheus
      interval: {{ .Values.global.serviceMonitor.interval }}
{{- end }}
{{- end -}}

{{/*
The Deployment of a service. Call with (dict "ctx" . "env" list "ports" list "volumes" list
"volumeMounts" list): the service's own environment, container ports beside `http`, volumes and
mounts beside the config and /tmp. Every pod reads its <service>.yaml from /etc/cairn and rolls
when it changes (checksum/config).
*/}}
{{- define "cairn.deployment" -}}
{{- $ctx := .ctx -}}
{{- $values := $ctx.Values -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "cairn.fullname" $ctx }}
  namespace: {{ $ctx.Release.Namespace }}
  labels:
    {{- include "cairn.labels" $ctx | nindent 4 }}
spec:
  replicas: {{ $values.replicaCount }}
  {{- with $values.strategy }}
  strategy:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "cairn.selectorLabels" $ctx | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "cairn.labels" $ctx | nindent 8 }}
        {{- with $values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      annotations:
        checksum/config: {{ include "cairn.serviceYaml" (dict "ctx" $ctx "usesKafka" .usesKafka) | sha256sum }}
        {{- with $values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "cairn.serviceAccountName" $ctx }}
      automountServiceAccountToken: {{ $values.serviceAccount.automountToken }}
      {{- with $ctx.Values.global.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      {{- with $values.podSecurityContext }}
      securityContext:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      terminationGracePeriodSeconds: {{ $values.terminationGracePeriodSeconds }}
      containers:
        - name: {{ $ctx.Chart.Name }}
          image: {{ include "cairn.image" $ctx | quote }}
          imagePullPolicy: {{ $values.image.pullPolicy | default $ctx.Values.global.image.pullPolicy }}
          {{- with $values.securityContext }}
          securityContext:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          env:
            - name: POD_NAME
              valueFrom:
                fieldRef: {fieldPath: metadata.name}
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef: {fieldPath: metadata.namespace}
            # Read /etc/cairn/<service>.yaml over the packaged one (spring.config.name is the service).
            - name: SPRING_CONFIG_ADDITIONALLOCATION
              value: optional:file:/etc/cairn/
            - name: JAVA_TOOL_OPTIONS
              value: {{ $values.jvmOptions | quote }}
            {{- with .env }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
            {{- with $values.env }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          ports:
            - name: http
              containerPort: 8080
              protocol: TCP
            {{- with .ports }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          startupProbe:
            httpGet: {path: /actuator/health/liveness, port: http}
            periodSeconds: 2
            failureThreshold: {{ $values.startupFailureThreshold }}
          livenessProbe:
            httpGet: {path: /actuator/health/liveness, port: http}
            periodSeconds: 10
            failureThreshold: 3
          readinessProbe:
            httpGet: {path: /actuator/health/readiness, port: http}
            periodSeconds: 5
            failureThreshold: 3
          {{- with $values.resources }}
          resources:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          volumeMounts:
            - name: config
              mountPath: /etc/cairn
              readOnly: true
            - name: tmp
              mountPath: /tmp
            {{- with .volumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
            {{- with $values.extraVolumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        - name: config
          configMap:
            name: {{ include "cairn.fullname" $ctx }}
        - name: tmp
          emptyDir: {}
        {{- with .volumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
        {{- with $values.extraVolumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with $values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.topologySpreadConstraints }}
      topologySpreadConstraints:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end -}}
