// Owns the API's description: the OpenAPI document (@fastify/swagger gathers every route registered after
// it, so it is registered first) served portable at GET /openapi.json (http/openapi.ts), and Swagger UI
// at /docs.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { portableDocument } from '../http/openapi.js';

export async function registerDocs(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sangam API',
        version: '1.0.0',
        description:
          'Verification, payment and recharge operations behind one contract. Every response is the envelope ' +
          '{ statuscode, ok, message, data }. Authenticate with "Authorization: Bearer sk_test_…" (sandbox) or sk_live_… (live).',
      },
      servers: [{ url: publicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sk_test_… or sk_live_… API key' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  // The portable document (http/openapi.ts), derived once: the routes cannot change after ready.
  let openapi: object | undefined;
  app.get('/openapi.json', { schema: { hide: true } }, async () => (openapi ??= portableDocument(app.swagger())));
}
