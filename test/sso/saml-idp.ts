import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/**
 * A small SAML 2.0 identity provider for the tests: it reads the SP's AuthnRequest (HTTP-Redirect binding),
 * and answers with a Response whose Assertion is signed with xml-crypto and the test key (RSA-SHA256,
 * exclusive canonicalization), presented as a page with a form the browser posts to the ACS URL (HTTP-POST
 * binding). `mode` makes the tampered answers a real IdP could be tricked or broken into sending.
 */
export const IDP_CERT = readFileSync(new URL('../fixtures/saml-idp-cert.pem', import.meta.url), 'utf8').trim();
const IDP_KEY = readFileSync(new URL('../fixtures/saml-idp-key.pem', import.meta.url), 'utf8');

export type IdpMode = 'good' | 'unsigned' | 'wrong-audience' | 'expired' | 'wrong-recipient' | 'replay';

export interface AuthnRequestFacts {
  id: string;
  acsURL: string;
  spEntityID: string;
}

export function readAuthnRequest(samlRequest: string): AuthnRequestFacts {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const attribute = (name: string) => new RegExp(`\\s${name}="([^"]+)"`).exec(xml)?.[1] ?? '';
  const issuer = /<(?:saml2?:)?Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? '';
  return { id: attribute('ID'), acsURL: attribute('AssertionConsumerServiceURL'), spEntityID: issuer };
}

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const xmlId = () => `_${randomBytes(16).toString('hex')}`;

export class TestIdp {
  mode: IdpMode = 'good';
  email = 'ada@acme.test';
  readonly entityID = 'https://idp.quire.test/saml';
  /** The last answer made in mode 'good' (base64), which mode 'replay' sends again. */
  lastGoodResponse: string | null = null;
  /** Every assertion id this IdP issued. */
  readonly assertionIds: string[] = [];
  private server: Server | null = null;
  url = '';

  /** A base64 SAMLResponse answering `request` in the current mode. */
  respond(request: AuthnRequestFacts): string {
    if (this.mode === 'replay' && this.lastGoodResponse) return this.lastGoodResponse;
    const assertionId = xmlId();
    this.assertionIds.push(assertionId);
    const expired = this.mode === 'expired';
    const notBefore = iso(expired ? -3_600_000 : -60_000);
    const notOnOrAfter = iso(expired ? -1_800_000 : 300_000);
    const issued = iso(expired ? -3_600_000 : 0);
    const audience = this.mode === 'wrong-audience' ? 'https://someone-else.example.com/saml' : request.spEntityID;
    const recipient = this.mode === 'wrong-recipient' ? 'https://someone-else.example.com/acs' : request.acsURL;
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${issued}">` +
      `<saml:Issuer>${this.entityID}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${this.email}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${recipient}" InResponseTo="${request.id}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="${xmlId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>Ada Lovelace</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
      `</saml:Assertion>`;
    const response =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${xmlId()}" Version="2.0" IssueInstant="${issued}" Destination="${request.acsURL}" InResponseTo="${request.id}">` +
      `<saml:Issuer>${this.entityID}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertion +
      `</samlp:Response>`;
    const xml = this.mode === 'unsigned' ? response : sign(response);
    const encoded = Buffer.from(xml).toString('base64');
    if (this.mode === 'good') this.lastGoodResponse = encoded;
    return encoded;
  }

  async start(port: number): Promise<void> {
    this.url = `http://127.0.0.1:${port}`;
    this.server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', this.url);
      const samlRequest = url.searchParams.get('SAMLRequest');
      if (url.pathname !== '/sso' || !samlRequest) {
        response.writeHead(404).end();
        return;
      }
      const facts = readAuthnRequest(samlRequest);
      const relayState = url.searchParams.get('RelayState') ?? '';
      const body = `<!doctype html><html lang="en"><head><title>Test IdP</title></head><body><h1>Test identity provider</h1>
<form method="post" action="${facts.acsURL}"><input type="hidden" name="SAMLResponse" value="${this.respond(facts)}"><input type="hidden" name="RelayState" value="${relayState}"><button type="submit">Continue to Quire</button></form></body></html>`;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function sign(response: string): string {
  const signature = new SignedXml({
    privateKey: IDP_KEY,
    publicCert: IDP_CERT,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signature.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  signature.computeSignature(response, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
  return signature.getSignedXml();
}
