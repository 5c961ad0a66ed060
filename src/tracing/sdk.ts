// Owns the OpenTelemetry SDK of a server whose traces are configured (loaded by index.ts startTracing,
// never otherwise): a tracer provider sampling every root (a caller's sampled `traceparent` decides for
// its children), spans batched and sent OTLP over HTTP as JSON to <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces,
// the W3C trace-context propagator (http/tracing.ts reads `traceparent` with it) and the async-hooks
// context manager (so a store statement finds its request's span). Stopping flushes what is queued and
// puts the no-op API back, so a process may start it again (tests).
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Config } from '../config.js';

export function startSdk(traces: NonNullable<Config['traces']>): () => Promise<void> {
  const exporter = new OTLPTraceExporter({ url: `${traces.endpoint}/v1/traces` });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: traces.serviceName }),
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: traces.exportDelayMs })],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return async () => {
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  };
}
