// The benchmark's baseline: a bare Fastify route that validates the same body with the same schema
// and echoes it. What Sangam adds on top (auth, idempotency, store, audit) is measured against this.
import Fastify from 'fastify';
import { SignatureMatchRequest } from '../src/operations/signature-match/schema.js';
import { compile } from '../src/http/validation.js';

const app = Fastify({ logger: false });
app.setValidatorCompiler(({ schema }) => compile(schema));
app.post('/echo', { schema: { body: SignatureMatchRequest } }, async (req) => ({ statuscode: 'TXN', ok: true, message: 'echo', data: req.body }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as { port: number }).port });
