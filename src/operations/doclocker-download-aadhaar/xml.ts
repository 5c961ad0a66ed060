// Owns the document behind Xml_Url: the Aadhaar XML of one download, served to whoever holds the
// signed, expiring link (as a document locker's pre-signed URL would be). From a partner that keeps the
// signed document (DigiLocker's eAadhaar XML, exactly as signed), that; otherwise built from the stored
// result and the regenerated photo. The full Aadhaar number is never in it. Once the reference is
// erased, the link answers 404 (CONTRACT §1 has no 410): the document is gone, not the link's fault.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import type { OperationDeps } from '../operation.js';
import { withPhoto, XML_PATH } from './record.js';

const esc = (v: unknown) => String(v ?? '').replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function aadhaarXml(referenceId: string, x: Record<string, unknown>): string {
  const a = (x.Address ?? {}) as Record<string, unknown>;
  return `<?xml version="1.0" encoding="UTF-8"?>
<OfflinePaperlessKyc referenceId="${esc(referenceId)}">
  <UidData>
    <Poi name="${esc(x.Full_Name)}" dob="${esc(x.Dob)}" gender="${esc(x.Gender)}"/>
    <Poa careof="${esc(x.Care_Of)}" country="${esc(a.Country)}" dist="${esc(a.Dist)}" state="${esc(a.State)}" street="${esc(a.Street)}"/>
    <MaskedUid>${esc(x.Masked_Aadhaar)}</MaskedUid>
    <Pht>${esc(x.Profile_Image)}</Pht>
  </UidData>
</OfflinePaperlessKyc>
`;
}

type XmlRequest = FastifyRequest<{ Params: { txn_id: string }; Querystring: { expires?: string; signature?: string } }>;

/** GET XML_PATH<txn_id>?expires=…&signature=…: the handler src/routes/files/aadhaar-xml.ts registers. */
export function xmlHandler(deps: OperationDeps) {
  return async (req: XmlRequest, reply: FastifyReply) => {
    const path = `${XML_PATH}${req.params.txn_id}`;
    const verdict = deps.urls.verify(path, req.query.expires, req.query.signature);
    if (verdict === 'expired') throw new ApiError('forbidden', 'This Xml_Url has expired; download the record again for a fresh link');
    if (verdict !== 'ok') throw new ApiError('not_found', 'No document at this URL');
    const tx = await deps.transactions.getWithPartner(deps.db, req.params.txn_id);
    if (!tx || tx.operation !== 'doclocker-download-aadhaar' || tx.status !== 'success') throw new ApiError('not_found', 'No document at this URL');
    // An erasure (POST /api/v1/erasures) keeps only the money facts of the result and deletes the
    // partner's stored document: the link still verifies, but there is nothing left to serve.
    if (tx.result.erased_at) throw new ApiError('not_found', 'This document was erased at the request of the person it describes; it is no longer served');
    if (!tx.result.Aadhaar_Xml_Data) throw new ApiError('not_found', 'No document at this URL');
    reply.header('cache-control', 'private, no-store');
    const signed = tx.environment === 'live' && tx.partner ? await deps.documents?.document(tx.partner, req.params.txn_id) : null;
    if (signed) return reply.type(signed.contentType).send(signed.body);
    const data = tx.environment === 'sandbox' ? withPhoto(tx.result) : tx.result;
    reply.type('application/xml; charset=utf-8');
    return aadhaarXml(tx.reference_id, data.Aadhaar_Xml_Data as Record<string, unknown>);
  };
}
