// Owns the DigiLocker emulator's test PKI. DigiLocker signs eAadhaar XML with a "DS NATIONAL E-GOVERNANCE
// DIVISION 1" document-signer leaf under SafeScrypt → CCA India 2022 (PARTNERS.md §1.9); nobody outside
// NeGD holds that key, so the emulator makes its own look-alike chain: a root CA (the trust anchor a
// connector is configured with), an intermediate CA, and a document-signer leaf with the same key usage
// and EKUs. A second, unrelated root with its own leaf serves the "untrusted signer" fault.
//
// Only the two signing leaves' private keys are kept (in memory, or in --pki-dir so that restarts reuse the
// chain and a configured trust anchor stays valid); the CA keys are discarded once they have issued.
import { createPrivateKey, randomBytes, webcrypto, type KeyObject } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata'; // @peculiar/x509's tsyringe needs Reflect.getMetadata
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

// RSA 2048 with PKCS#1 v1.5: anon-digilocker's verifier hard-codes a 2048-bit modulus (§1.9).
const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
const DOCUMENT_SIGNING_EKUS = ['1.2.840.113583.1.1.5', '1.3.6.1.4.1.311.10.3.12']; // Adobe Authentic Documents, Document Signing
const DAY = 86_400_000;

/** A distinguished name, most significant first (C … CN), as [attribute, value] pairs. */
type Dn = Array<[string, string]>;

const OID: Record<string, string> = { C: '2.5.4.6', O: '2.5.4.10', OU: '2.5.4.11', ST: '2.5.4.8', postalCode: '2.5.4.17', CN: '2.5.4.3' };

const SIGNER: Dn = [
  ['C', 'IN'], ['O', 'EMULATED NATIONAL E-GOVERNANCE DIVISION'], ['OU', 'EMULATED NATIONAL E-GOVERNANCE DIVISION'],
  ['postalCode', '110003'], ['ST', 'DELHI'], ['CN', 'DS EMULATED E-GOVERNANCE DIVISION 1'],
];

const NAMES: Record<'root' | 'intermediate' | 'signer' | 'untrustedRoot' | 'untrustedSigner', Dn> = {
  root: [['C', 'IN'], ['O', 'Sangam Emulator PKI (not India PKI)'], ['CN', 'Emulator CCA India Test Root']],
  intermediate: [['C', 'IN'], ['O', 'Sangam Emulator PKI (not Sify)'], ['OU', 'Sub-CA'], ['CN', 'Emulator sub-CA for Document Signer']],
  signer: SIGNER,
  untrustedRoot: [['C', 'IN'], ['O', 'Untrusted Emulator CA'], ['CN', 'Untrusted Emulator Root']],
  // Same subject as the trusted leaf on purpose: only the chain tells them apart.
  untrustedSigner: SIGNER,
};

export interface SignerChain {
  key: KeyObject;
  /** leaf first, then the rest of its chain up to and including its root. */
  certs: Array<{ der: Buffer; subjectName: string }>;
}

export interface TestPki {
  trusted: SignerChain;
  untrusted: SignerChain;
  /** PEM of the trusted root: the file to configure as SANGAM_PARTNER_DIGILOCKER_TRUST_ANCHORS. */
  anchorsPem: string;
  anchorsPath: string;
  untrustedAnchorPem: string;
  /** Removes a temporary directory the PKI created; a no-op for a --pki-dir. */
  dispose(): Promise<void>;
}

interface Stored {
  version: 1;
  trusted: { key: string; certs: string[] };
  untrusted: { key: string; certs: string[] };
}

/** X509SubjectName the way the observed payload writes it: Java's RFC 2253 form, CN first, no spaces. */
function subjectName(dn: Dn): string {
  return [...dn].reverse().map(([k, v]) => `${k}=${v.replace(/([,+"\\<>;])/g, '\\$1')}`).join(',');
}

function jsonName(dn: Dn): x509.JsonName {
  return dn.map(([k, v]) => ({ [OID[k] ?? k]: [v] }));
}

async function keys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
}

const serial = () => `01${randomBytes(7).toString('hex')}`;

async function caPair(dn: Dn, pathLen: number): Promise<{ cert: x509.X509Certificate; keys: CryptoKeyPair }> {
  const k = await keys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: jsonName(dn),
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 20 * 365 * DAY),
    keys: k,
    signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(true, pathLen, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(k.publicKey),
    ],
  });
  return { cert, keys: k };
}

async function issue(
  dn: Dn,
  issuer: { cert: x509.X509Certificate; keys: CryptoKeyPair },
  kind: 'ca' | 'signer',
): Promise<{ cert: x509.X509Certificate; keys: CryptoKeyPair }> {
  const k = await keys();
  const extensions: x509.Extension[] =
    kind === 'ca'
      ? [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)]
      : [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
          new x509.ExtendedKeyUsageExtension(DOCUMENT_SIGNING_EKUS),
        ];
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: jsonName(dn),
    issuer: issuer.cert.subjectName,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + (kind === 'ca' ? 10 * 365 : 5 * 365) * DAY),
    publicKey: k.publicKey,
    signingKey: issuer.keys.privateKey,
    signingAlgorithm: RSA,
    extensions: [
      ...extensions,
      await x509.SubjectKeyIdentifierExtension.create(k.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(issuer.cert),
    ],
  });
  return { cert, keys: k };
}

async function pkcs8Pem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).export({ type: 'pkcs8', format: 'pem' }) as string;
}

async function generate(): Promise<Stored> {
  const root = await caPair(NAMES.root, 1);
  const intermediate = await issue(NAMES.intermediate, root, 'ca');
  const signer = await issue(NAMES.signer, intermediate, 'signer');
  const otherRoot = await caPair(NAMES.untrustedRoot, 0);
  const otherSigner = await issue(NAMES.untrustedSigner, otherRoot, 'signer');
  return {
    version: 1,
    trusted: { key: await pkcs8Pem(signer.keys.privateKey), certs: [signer.cert, intermediate.cert, root.cert].map((c) => c.toString('pem')) },
    untrusted: { key: await pkcs8Pem(otherSigner.keys.privateKey), certs: [otherSigner.cert, otherRoot.cert].map((c) => c.toString('pem')) },
  };
}

function chain(s: Stored['trusted'], names: Dn[]): SignerChain {
  return {
    key: createPrivateKey(s.key),
    certs: s.certs.map((pem, i) => ({ der: Buffer.from(new x509.X509Certificate(pem).rawData), subjectName: subjectName(names[i] ?? []) })),
  };
}

/**
 * Loads the PKI from `dir` (creating it there on first use), or makes a fresh one in a temporary directory.
 * Either way the trust anchor is written to `<dir>/trust-anchors.pem`.
 */
export async function loadOrCreatePki(dir?: string): Promise<TestPki> {
  const home = dir ?? (await mkdtemp(join(tmpdir(), 'digilocker-emulator-')));
  const file = join(home, 'pki.json');
  let stored: Stored | undefined;
  if (dir) {
    await mkdir(dir, { recursive: true });
    stored = await readFile(file, 'utf8').then((t) => JSON.parse(t) as Stored, () => undefined);
    if (stored && stored.version !== 1) throw new Error(`${file}: unknown PKI file version`);
  }
  if (!stored) {
    stored = await generate();
    await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  const anchorsPem = stored.trusted.certs.at(-1) ?? '';
  const untrustedAnchorPem = stored.untrusted.certs.at(-1) ?? '';
  const anchorsPath = join(home, 'trust-anchors.pem');
  await writeFile(anchorsPath, anchorsPem);
  await writeFile(join(home, 'untrusted-anchor.pem'), untrustedAnchorPem);
  return {
    trusted: chain(stored.trusted, [NAMES.signer, NAMES.intermediate, NAMES.root]),
    untrusted: chain(stored.untrusted, [NAMES.untrustedSigner, NAMES.untrustedRoot]),
    anchorsPem,
    anchorsPath,
    untrustedAnchorPem,
    dispose: async () => {
      if (!dir) await rm(home, { recursive: true, force: true });
    },
  };
}
