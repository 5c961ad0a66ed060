// Owns the routes of the operations, one per declaration of the registry (operations/registry.ts) at its
// path under /api/v1 (and a POST alias beside a GET): the schema the OpenAPI document shows, derived from
// the declaration; the request's way to its runner is operations/route.ts.
import type { FastifyInstance } from 'fastify';
import { responses, ResultEnvelope } from '../../../http/responses.js';
import { readJsonBody } from '../../../http/json-body.js';
import { headersDoc, OPERATION_ERRORS, requestDoc } from '../../../operations/document.js';
import type { OperationDef } from '../../../operations/operation.js';
import { handleOperation, type OperationRoutes } from '../../../operations/route.js';

export function registerOperation(app: FastifyInstance, def: OperationDef, routes: OperationRoutes): void {
  const methods = def.method === 'GET' ? (['GET', 'POST'] as const) : (['POST'] as const);
  const request = requestDoc(def);
  const headers = headersDoc(def);
  const response = responses(
    ResultEnvelope(def.result, 'The result: TXN success, TUP pending, or ERR business failure (HTTP 200, Errorcode 120)'),
    { replayable: true, errors: OPERATION_ERRORS },
  );
  for (const method of methods) {
    app.route({
      method,
      url: def.path,
      bodyLimit: def.bodyLimit,
      config: { operation: def.slug },
      schema: {
        operationId: method === def.method ? def.operationId : `${def.operationId}Post`,
        summary: method === def.method ? def.summary : `${def.summary} (POST alias)`,
        description: def.description,
        tags: [def.tag],
        ...(method === 'GET' ? { querystring: request } : { body: request }),
        ...(headers && { headers }),
        response,
      },
      // The schema above documents the operation; parseInput validates it (aliases and query/body choice
      // need the raw input), so Fastify's own validation is switched off for these routes, and answers
      // are never filtered through the documented response.
      validatorCompiler: () => () => true,
      serializerCompiler: () => (data) => JSON.stringify(data),
      preValidation: method === 'GET' ? readJsonBody : undefined,
      handler: (req, reply) => handleOperation(def, routes, req, reply),
    });
  }
}
