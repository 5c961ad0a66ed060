// Owns signature match's sandbox answer: the signer is a made-up person derived from the document, and
// the score is the token-sort name score against `name` (or a seeded confidence without one).
import type { OperationRequest, PartnerOutcome } from '../../providers/connector.js';
import { nameMatchScore } from '../../providers/sandbox/index.js';
import { person } from '../../../shared/people.js';
import { SeededRandom } from '../../../shared/random.js';

export async function signatureMatchSandbox(req: OperationRequest): Promise<PartnerOutcome> {
  if (req.operation !== 'signature-match') throw new Error(`signature match cannot answer ${req.operation}`);
  const extracted = person(`signature:${req.input}`).name;
  const score = req.name !== undefined ? nameMatchScore(req.name, extracted) : 70 + new SeededRandom(`ocr:${req.input}`).int(30);
  return {
    status: 'success',
    message: req.name !== undefined ? `Signature read; name match score ${score}` : `Signature read with confidence ${score}`,
    signature: { score, extractedName: extracted },
  };
}
