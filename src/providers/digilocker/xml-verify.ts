// Owns the verification of an eAadhaar document (PARTNERS.md §1.7–1.9), in this order:
//   1. the optional `hmac` header: base64(HMAC-SHA256(key = UTF-8 client secret, raw body bytes)),
//      compared in constant time over the bytes exactly as received;
//   2. the XML signature (root `Certificate`, `KycRes` — the partner's spec — or `OfflinePaperlessKyc`):
//      no DOCTYPE, DTD or entity declaration is accepted (refused on the raw text, before any parser
//      sees it); exactly one XMLDSig `Signature` in the document, the last element child of the root; one `SignedInfo` with one `Reference` whose URI is "" (the whole document),
//      whose only transform is enveloped-signature, with the §1.9 algorithms; the digest and RSA
//      signature checked by xml-crypto with the leaf certificate we picked ourselves (never its
//      KeyInfo resolver). Against signature wrapping, the canonical content xml-crypto reports as
//      signed must equal our own canonical form of the parsed document minus its Signature, and the
//      record is read from that signed content only;
//   3. the signer: the KeyInfo certificates (any order) must chain to a configured trust anchor, each
//      valid at the document's signing time (`KycRes@ts`), intermediates being CAs, the leaf fit to
//      sign documents (key usage, extended key usage when present).
// A refusal names its reason and carries nothing from the document.
import { createHmac, timingSafeEqual, X509Certificate } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Document, Element } from '@xmldom/xmldom';
import type * as XmlDom from '@xmldom/xmldom';
import type * as Peculiar from '@peculiar/x509';
import type * as XmlCrypto from 'xml-crypto';
import { signingTime } from './transformers.js';

const load = createRequire(import.meta.url);
let loaded: { dom: typeof XmlDom; x509: typeof Peculiar; xml: typeof XmlCrypto } | undefined;
/**
 * The XML and certificate libraries, loaded the first time an eAadhaar is checked: about 260 ms of
 * module loading that only live DigiLocker downloads need, kept out of every server's boot (< 2 s).
 */
function libs(): NonNullable<typeof loaded> {
  if (!loaded) {
    load('reflect-metadata'); // @peculiar/x509's decorators need it first
    loaded = { dom: load('@xmldom/xmldom') as typeof XmlDom, x509: load('@peculiar/x509') as typeof Peculiar, xml: load('xml-crypto') as typeof XmlCrypto };
  }
  return loaded;
}

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
/**
 * The roots an eAadhaar document may have: `Certificate` (the real 2023–24 payloads PARTNERS.md §1.8
 * cites), `KycRes` (the partner's own spec, EaadharXamlSchema: UIDAI's signature inside KycRes, as its
 * last child) and `OfflinePaperlessKyc`. Whatever the root, one enveloped signature over the whole
 * document, verified below, is the only thing that makes its content usable.
 */
const ROOTS = new Set(['Certificate', 'KycRes', 'OfflinePaperlessKyc']);
const ALGORITHMS = {
  // §1.9: exclusive C14N over SignedInfo, RSA-SHA1, SHA-256 digest. RSA-SHA256 is accepted too, for the
  // day DigiLocker moves off SHA-1; nothing weaker or stranger is. Inclusive C14N 1.0 is accepted for
  // SignedInfo because the spec's KycRes names the field without its value, and UIDAI's own signed
  // responses use it [unconfirmed reading, src/providers/digilocker/PARTNER.md].
  canonicalization: new Set(['http://www.w3.org/2001/10/xml-exc-c14n#', 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315']),
  signature: new Set([`${DSIG}rsa-sha1`, 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256']),
  digest: new Set(['http://www.w3.org/2001/04/xmlenc#sha256']),
  transforms: [`${DSIG}enveloped-signature`],
};
/** Document Signing (Microsoft), Adobe Authentic Documents (both on the observed signer), anyExtendedKeyUsage. */
const SIGNING_EKUS = new Set(['1.3.6.1.4.1.311.10.3.12', '1.2.840.113583.1.1.5', '2.5.29.37.0']);
/** A signing time ahead of our clock by more than this is a lie or a broken clock. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;
const MAX_CERTS = 10;

export type Refusal = 'bad hmac' | 'unsafe xml' | 'malformed xml' | 'bad signature' | 'untrusted signer';

export type Verdict =
  | { ok: true; /** The XML exactly as received. */ xml: string; /** The signed content, parsed. */ root: Element; signedAt: Date }
  | { ok: false; reason: Refusal; detail: string };

export interface VerifyOptions {
  clientSecret: string;
  anchors: readonly X509Certificate[];
  now?: Date;
}

const refuse = (reason: Refusal, detail: string): Verdict => ({ ok: false, reason, detail });

/** The trust anchors in a PEM file's text; throws when it holds none. */
export function parseAnchors(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('holds no PEM certificate');
  return blocks.map((b) => new X509Certificate(b));
}

/** Step 1. A missing header is no failure (§1.7: optional); a present one must match exactly. */
export function hmacMatches(raw: Buffer, header: string | undefined | null, clientSecret: string): boolean {
  if (header === undefined) return true;
  if (header === null) return false; // repeated header
  const given = header.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(given)) return false;
  const expected = createHmac('sha256', Buffer.from(clientSecret, 'utf8')).update(raw).digest();
  const got = Buffer.from(given, 'base64');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** A parser that stops at the first error or warning instead of repairing the input. */
function parse(xml: string): Document {
  return new (libs().dom.DOMParser)({
    onError: (level, msg) => {
      throw new Error(`${level}: ${msg}`);
    },
  }).parseFromString(xml, 'text/xml');
}

const elementChildren = (el: Element): Element[] => {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
};
const dsigChildren = (el: Element | undefined, name: string) => (el ? elementChildren(el).filter((c) => c.namespaceURI === DSIG && c.localName === name) : []);
const algorithm = (el: Element | undefined) => el?.getAttribute('Algorithm') ?? '';

/** Step 2's structural checks: the one Signature when it has the shape §1.9 describes, else why not. */
function signatureShape(doc: Document, root: Element): { sig: Element } | string {
  const all = doc.getElementsByTagNameNS(DSIG, 'Signature');
  if (all.length !== 1) return `expected exactly one Signature, found ${all.length}`;
  const sig = all[0]!;
  const kids = elementChildren(root);
  if (sig.parentNode !== root || kids[kids.length - 1] !== sig) return 'the Signature is not the last child of the root (not enveloped)';
  const signedInfo = dsigChildren(sig, 'SignedInfo');
  if (signedInfo.length !== 1) return 'expected exactly one SignedInfo';
  const si = signedInfo[0]!;
  if (!ALGORITHMS.canonicalization.has(algorithm(dsigChildren(si, 'CanonicalizationMethod')[0]))) return 'unexpected canonicalization algorithm';
  if (!ALGORITHMS.signature.has(algorithm(dsigChildren(si, 'SignatureMethod')[0]))) return 'unexpected signature algorithm';
  const refs = dsigChildren(si, 'Reference');
  if (refs.length !== 1) return `expected exactly one Reference, found ${refs.length}`;
  const ref = refs[0]!;
  if (!ref.hasAttribute('URI') || ref.getAttribute('URI') !== '') return 'the Reference does not cover the whole document (URI is not "")';
  const transforms = dsigChildren(dsigChildren(ref, 'Transforms')[0], 'Transform').map(algorithm);
  if (transforms.join(' ') !== ALGORITHMS.transforms.join(' ')) return 'unexpected transforms';
  if (!ALGORITHMS.digest.has(algorithm(dsigChildren(ref, 'DigestMethod')[0]))) return 'unexpected digest algorithm';
  return { sig };
}

/** The KeyInfo certificates, or a reason. */
function keyInfoCertificates(sig: Element): X509Certificate[] | string {
  const texts = dsigChildren(dsigChildren(sig, 'KeyInfo')[0], 'X509Data').flatMap((d) => dsigChildren(d, 'X509Certificate')).map((c) => c.textContent ?? '');
  if (texts.length === 0) return 'no certificate in KeyInfo';
  if (texts.length > MAX_CERTS) return 'too many certificates in KeyInfo';
  try {
    return texts.map((t) => new X509Certificate(Buffer.from(t.replace(/\s+/g, ''), 'base64')));
  } catch {
    return 'a KeyInfo certificate does not parse';
  }
}

/** The one certificate that is not a CA: the signer. */
function leafOf(certs: X509Certificate[]): X509Certificate | string {
  const leaves = certs.filter((c) => !c.ca);
  return leaves.length === 1 ? leaves[0]! : `expected one signer certificate in KeyInfo, found ${leaves.length}`;
}

const validAt = (c: X509Certificate, at: Date) => new Date(c.validFrom).getTime() <= at.getTime() && at.getTime() <= new Date(c.validTo).getTime();
const issuedBy = (c: X509Certificate, issuer: X509Certificate) => c.checkIssued(issuer) && c.verify(issuer.publicKey);

/** Step 3: null when the leaf chains to an anchor with every link valid at `at`; otherwise why not. */
export function chainProblem(leaf: X509Certificate, bag: readonly X509Certificate[], anchors: readonly X509Certificate[], at: Date): string | null {
  const eku = leaf.keyUsage; // Node names the extended key usage list `keyUsage`
  if (eku && !eku.some((o) => SIGNING_EKUS.has(o))) return 'the signer certificate is not for document signing (extended key usage)';
  const { X509Certificate: PeculiarCertificate, KeyUsagesExtension, KeyUsageFlags } = libs().x509;
  const ku = new PeculiarCertificate(leaf.raw).getExtension(KeyUsagesExtension);
  if (ku && !(ku.usages & (KeyUsageFlags.digitalSignature | KeyUsageFlags.nonRepudiation))) return 'the signer certificate may not sign (key usage)';
  let cur = leaf;
  const seen = new Set<string>();
  for (let depth = 0; depth <= MAX_CERTS; depth++) {
    if (!validAt(cur, at)) return `certificate "${cur.subject.replace(/\n/g, ', ')}" was not valid at the signing time`;
    if (anchors.some((a) => a.fingerprint256 === cur.fingerprint256)) return null;
    const anchor = anchors.find((a) => issuedBy(cur, a));
    if (anchor) return validAt(anchor, at) ? null : 'the trust anchor was not valid at the signing time';
    seen.add(cur.fingerprint256);
    const next = bag.find((c) => c.ca && !seen.has(c.fingerprint256) && issuedBy(cur, c));
    if (!next) return 'the signer does not chain to a trusted anchor';
    cur = next;
  }
  return 'the certificate chain is too long';
}

/** Verifies one eAadhaar answer; see the module header for what, and in which order. */
export function verifyEaadhaar(raw: Buffer, hmacHeader: string | undefined | null, o: VerifyOptions): Verdict {
  if (!hmacMatches(raw, hmacHeader, o.clientSecret)) return refuse('bad hmac', 'the hmac header does not match the body');

  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    return refuse('malformed xml', 'the body is not UTF-8');
  }
  // Any markup declaration (DOCTYPE, ENTITY, ELEMENT, ATTLIST …) — everything `<!` opens but a comment
  // or a CDATA section — is refused before parsing: no parser ever sees a DTD.
  if (/<!(?!--|\[CDATA\[)/.test(xml)) return refuse('unsafe xml', 'the document declares a DTD or entities');
  const decl = /^\uFEFF?<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(xml);
  if (decl && decl[1]!.toLowerCase() !== 'utf-8') return refuse('malformed xml', 'the document declares an encoding other than UTF-8');

  let doc: Document;
  try {
    doc = parse(xml);
  } catch {
    return refuse('malformed xml', 'the document is not well-formed XML');
  }
  const root = doc.documentElement;
  if (!root || root.namespaceURI || !ROOTS.has(root.localName ?? '')) {
    return refuse('malformed xml', 'the document is not an eAadhaar certificate');
  }
  const shape = signatureShape(doc, root);
  if (typeof shape === 'string') return refuse('bad signature', shape);
  const certs = keyInfoCertificates(shape.sig);
  if (typeof certs === 'string') return refuse('untrusted signer', certs);
  const leaf = leafOf(certs);
  if (typeof leaf === 'string') return refuse('untrusted signer', leaf);

  const sx = new (libs().xml.SignedXml)({ publicCert: leaf.toString(), getCertFromKeyInfo: () => null });
  let signed: string;
  try {
    sx.loadSignature(shape.sig as unknown as Node);
    if (!sx.checkSignature(xml)) return refuse('bad signature', 'the digest of the document does not match');
    const refs = sx.getSignedReferences();
    if (refs.length !== 1) return refuse('bad signature', 'expected exactly one signed reference');
    signed = refs[0]!;
  } catch {
    return refuse('bad signature', 'the signature does not verify');
  }
  // What xml-crypto hashed came from its own parse of the text; it must be the document we parsed.
  const unsigned = root.cloneNode(true) as Element;
  for (const s of elementChildren(unsigned)) if (s.namespaceURI === DSIG && s.localName === 'Signature') unsigned.removeChild(s);
  if (new (libs().xml.C14nCanonicalization)().process(unsigned as unknown as Node, {}) !== signed) {
    return refuse('bad signature', 'the signed content is not the document');
  }

  let signedRoot: Element;
  try {
    signedRoot = parse(signed).documentElement!;
  } catch {
    return refuse('malformed xml', 'the signed content does not parse');
  }
  const signedAt = signingTime(signedRoot);
  const now = o.now ?? new Date();
  if (!signedAt) return refuse('malformed xml', 'the document carries no signing time');
  if (signedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) return refuse('untrusted signer', 'the signing time is in the future');
  const problem = chainProblem(leaf, certs, o.anchors, signedAt);
  if (problem) return refuse('untrusted signer', problem);
  return { ok: true, xml, root: signedRoot, signedAt };
}
