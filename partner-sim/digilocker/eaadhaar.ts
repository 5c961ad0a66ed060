// Owns the emulator's eAadhaar XML: the document shapes DigiLocker serves (PARTNERS.md §1.8, and the
// partner's own spec's KycRes: EaadhaarShape), its enveloped
// XML-DSig exactly as §1.9 describes it, and the deliberately bad variants the faults ask for.
//
// The signature is assembled by hand rather than by xml-crypto's computeSignature because the observed
// payload carries newlines and indentation inside <Signature>/<SignedInfo>, which are part of the signed
// canonical form; xml-crypto's own canonicalisers still produce the digest and the SignedInfo octets.
//   - Reference URI="" (whole document), one transform: enveloped-signature. No c14n transform is listed,
//     so XMLDSig's default applies: inclusive C14N 1.0 without comments, digested with SHA-256.
//   - SignedInfo canonicalised with exclusive C14N, signed RSA-SHA1 (PKCS#1 v1.5).
//   - KeyInfo/X509Data: X509SubjectName + X509Certificate pairs, leaf first, then the root, then the
//     intermediate — the order the observed payload uses (leaf, CCA root, CA, sub-CA), so a connector
//     must build the chain rather than assume one.
import { createHash, randomBytes, sign as rsaSign } from 'node:crypto';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { C14nCanonicalization, ExclusiveCanonicalization, findAncestorNs } from 'xml-crypto';
import type { SignerChain } from './pki.js';
import type { Address, Resident } from './residents.js';
import { portraitJpeg } from './jpeg.js';

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const PLACEHOLDER = '@@SIGNATURE_VALUE@@';

export type XmlVariant =
  /** The document as DigiLocker would serve it. */
  | 'genuine'
  /** Genuine, then one byte of Poi@name changed after signing: the digest no longer matches. */
  | 'tampered'
  /** Correctly signed, but by a leaf of the untrusted CA (same subject name as the real signer). */
  | 'untrusted_signer'
  /** A valid trusted signature whose Reference is URI="#signed-data" (not ""), covering a genuine copy hidden
   *  in <Wrapper>, while the first CertificateData in document order is forged and unsigned. */
  | 'signature_wrapping'
  /** Genuine and validly signed, but preceded by a DOCTYPE with external-entity (XXE) declarations. */
  | 'with_doctype';

/**
 * Which document: `certificate`, the observed payloads' `<Certificate><CertificateData><KycRes>…` with
 * the signature on `Certificate` (PARTNERS.md §1.8 [S]); `kycres`, the partner's own spec
 * (EaadharXamlSchema): `<KycRes>` as the root with Rar, UidData{Poi, Poa, LData, Pht, Prn} and UIDAI's
 * signature inside it, as its last child. The wrapping and DOCTYPE samples are always `certificate`.
 */
export type EaadhaarShape = 'certificate' | 'kycres';

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const attrs = (pairs: Array<[string, string | undefined]>) =>
  pairs.filter((p): p is [string, string] => p[1] !== undefined).map(([k, v]) => ` ${k}="${esc(v)}"`).join('');
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

const photos = new Map<string, string>();
function photo(r: Resident): string {
  let p = photos.get(r.key);
  if (!p) photos.set(r.key, (p = portraitJpeg(r.key).toString('base64')));
  return p;
}

/** Observed Poa attribute order; po and subdist appear only when set (§1.8: "parsers also see po, subdist"). */
function poa(a: Address): string {
  const opt = (v: string) => (v ? v : undefined);
  return `<Poa${attrs([
    ['co', a.co], ['country', a.country], ['dist', a.dist], ['house', a.house], ['lm', a.lm], ['loc', a.loc],
    ['pc', a.pc], ['po', opt(a.po)], ['state', a.state], ['street', a.street], ['subdist', opt(a.subdist)], ['vtc', a.vtc],
  ])}/>`;
}

function ldata(r: Resident): string {
  if (!r.local) return '';
  const a = r.local.address;
  return `<LData${attrs([
    ['co', a.co], ['country', a.country], ['dist', a.dist], ['lang', r.local.lang], ['lm', a.lm], ['loc', a.loc],
    ['name', r.local.name], ['pc', a.pc], ['state', a.state], ['street', a.street], ['vtc', a.vtc],
  ])}/>`;
}

/** `2024-06-04T14:54:03.230+05:30`: IST wall-clock time with milliseconds, as KycRes@ts reads. */
function istStamp(d: Date): string {
  return new Date(d.getTime() + 330 * 60_000).toISOString().replace('Z', '+05:30');
}

/** `KycRes` and its `UidData`; `spec` adds what the partner's EaadharXamlSchema has and observed payloads lack (Rar, Prn). */
function kycRes(r: Resident, now: Date, spec = false): string {
  const ttl = new Date(now.getTime() + 365 * 86_400_000);
  const dob = `${r.dob.slice(0, 2)}-${r.dob.slice(2, 4)}-${r.dob.slice(4)}`;
  // [G] tkn and txn formats are not documented beyond `UKC:<hex>`; random hex of plausible length.
  // [G] Rar (UIDAI's raw auth response) and Prn (the printable letter: `type`, base64 text) are opaque
  // here: placeholders of the right kind, never read by a client.
  const rar = spec ? `<Rar>${Buffer.from(`<AuthRes ret="y" txn="UKC:${hex(8)}"/>`).toString('base64')}</Rar>` : '';
  const prn = spec ? `<Prn type="pdf">${Buffer.from('%PDF-1.4 emulator placeholder').toString('base64')}</Prn>` : '';
  return (
    `<KycRes${attrs([['code', hex(16)], ['ret', 'Y'], ['ts', istStamp(now)], ['ttl', istStamp(ttl).slice(0, 19)], ['txn', `UKC:${hex(16)}`]])}>${rar}` +
    `<UidData${attrs([['tkn', hex(32)], ['uid', `xxxxxxxx${r.aadhaarLast4}`]])}>` +
    `<Poi${attrs([['dob', dob], ['gender', r.gender], ['name', r.name]])}/>${poa(r.address)}${ldata(r)}<Pht>${photo(r)}</Pht>${prn}` +
    `</UidData></KycRes>`
  );
}

function certificateData(r: Resident, now: Date, extra = ''): string {
  return `<CertificateData${extra}>${kycRes(r, now)}</CertificateData>`;
}

const PROLOG = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

function parse(xml: string): Document {
  return new DOMParser().parseFromString(xml, 'text/xml');
}

function signatureElement(uri: string, digest: string, chain: SignerChain): string {
  const [leaf, ...issuers] = chain.certs;
  const keyInfoCerts = [leaf, ...issuers.reverse()].filter((c) => c !== undefined);
  const x509 = keyInfoCerts.map((c) => `<X509SubjectName>${esc(c.subjectName)}</X509SubjectName><X509Certificate>${c.der.toString('base64')}</X509Certificate>`).join('');
  return (
    `<Signature xmlns="${DSIG}">\n` +
    `  <SignedInfo><CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>\n` +
    `    <SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/>\n` +
    `  <Reference URI="${uri}"><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></Transforms>` +
    `<DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><DigestValue>${digest}</DigestValue></Reference></SignedInfo>` +
    `<SignatureValue>${PLACEHOLDER}</SignatureValue>\n` +
    `<KeyInfo><X509Data>${x509}</X509Data></KeyInfo></Signature>`
  );
}

/**
 * Appends an enveloped signature as the root's last child. `uri` is "" (the whole document, as DigiLocker
 * does) or "#<Id>" (only for the wrapping sample).
 */
export function signEnveloped(unsigned: string, chain: SignerChain, uri = ''): string {
  const doc = parse(unsigned);
  const root = doc.documentElement;
  if (!root) throw new Error('signEnveloped: no document element');
  const target = uri === '' ? root : findById(doc, uri.slice(1));
  // The signature is not there yet, so the enveloped-signature transform removes nothing.
  const canon = new C14nCanonicalization().process(target as unknown as Node, { ancestorNamespaces: [] });
  const digest = createHash('sha256').update(canon, 'utf8').digest('base64');
  const end = unsigned.lastIndexOf('</');
  const withSig = `${unsigned.slice(0, end)}${signatureElement(uri, digest, chain)}${unsigned.slice(end)}`;

  const sdoc = parse(withSig);
  const signedInfo = sdoc.getElementsByTagNameNS(DSIG, 'SignedInfo')[0];
  if (!signedInfo) throw new Error('signEnveloped: SignedInfo missing');
  const signedInfoCanon = new ExclusiveCanonicalization().process(signedInfo as unknown as globalThis.Element, {
    ancestorNamespaces: findAncestorNs(sdoc as unknown as globalThis.Document, "//*[local-name()='SignedInfo']"),
  });
  const value = rsaSign('sha1', Buffer.from(signedInfoCanon, 'utf8'), chain.key).toString('base64');
  return withSig.replace(PLACEHOLDER, value);
}

function findById(doc: Document, id: string): Element {
  const all = doc.getElementsByTagName('*');
  for (let i = 0; i < all.length; i++) {
    const el = all.item(i);
    if (el?.getAttribute('Id') === id) return el;
  }
  throw new Error(`signEnveloped: no element with Id="${id}"`);
}

/** Flips the first letter of Poi@name: one byte, still well-formed, no longer matching the digest. */
function tamper(xml: string): string {
  const at = xml.indexOf(' name="', xml.indexOf('<Poi ')) + ' name="'.length;
  const ch = xml[at] === 'X' ? 'Y' : 'X';
  return `${xml.slice(0, at)}${ch}${xml.slice(at + 1)}`;
}

/**
 * The eAadhaar document for `r`, as served (UTF-8 text). `xxeUrl` is where the DOCTYPE sample's parameter
 * entity points (the emulator's own /_sim/xxe.dtd, which counts fetches), never a remote host.
 */
export function eaadhaarXml(r: Resident, v: XmlVariant, pki: { trusted: SignerChain; untrusted: SignerChain }, xxeUrl: string, now = new Date(), shape: EaadhaarShape = 'certificate'): string {
  const genuine = shape === 'kycres' ? `${PROLOG}${kycRes(r, now, true)}` : `${PROLOG}<Certificate>${certificateData(r, now)}</Certificate>`;
  switch (v) {
    case 'genuine':
      return signEnveloped(genuine, pki.trusted);
    case 'tampered':
      return tamper(signEnveloped(genuine, pki.trusted));
    case 'untrusted_signer':
      return signEnveloped(genuine, pki.untrusted);
    case 'signature_wrapping': {
      const forged: Resident = { ...r, name: 'Forged Identity', aadhaarLast4: '0000', dob: '01011970' };
      const doc = `${PROLOG}<Certificate>${certificateData(forged, now)}<Wrapper>${certificateData(r, now, ' Id="signed-data"')}</Wrapper></Certificate>`;
      return signEnveloped(doc, pki.trusted, '#signed-data');
    }
    case 'with_doctype': {
      // Declared after signing: the DOCTYPE is outside the canonical form, so the signature still verifies
      // and only a parser that refuses DTDs catches it. %remote; is referenced inside the DTD, so a parser
      // that resolves external entities fetches xxeUrl.
      const doctype =
        `<!DOCTYPE Certificate [\n  <!ENTITY xxe SYSTEM "file:///etc/passwd">\n  <!ENTITY % remote SYSTEM "${esc(xxeUrl)}">\n  %remote;\n` +
        `  <!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n]>\n`;
      const plain = `${PROLOG}<Certificate>${certificateData(r, now)}</Certificate>`;
      return signEnveloped(plain, pki.trusted).replace(PROLOG, `${PROLOG}${doctype}`);
    }
  }
}
