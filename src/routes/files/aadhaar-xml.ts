// Owns GET /files/aadhaar-xml/<txn_id>: the document behind a download's Xml_Url, for whoever holds the
// signed, expiring link (the handler and its checks: operations/doclocker-download-aadhaar/xml.ts).
import type { FastifyInstance } from 'fastify';
import type { OperationDeps } from '../../operations/operation.js';
import { XML_PATH } from '../../operations/doclocker-download-aadhaar/record.js';
import { xmlHandler } from '../../operations/doclocker-download-aadhaar/xml.js';

export function registerAadhaarXml(app: FastifyInstance, deps: OperationDeps): void {
  app.get(`${XML_PATH}:txn_id`, { schema: { hide: true } }, xmlHandler(deps));
}
