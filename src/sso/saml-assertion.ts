import { DOMParser } from '@xmldom/xmldom';

const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';

/** What Quire checks itself in an assertion whose signature @node-saml/node-saml has already verified. */
export interface AssertionFacts {
  id: string;
  /** The Recipient of each bearer subject confirmation. */
  recipients: string[];
  /** The latest NotOnOrAfter the assertion names (its conditions or its confirmations): how long its id must be remembered. */
  notOnOrAfter: string | null;
}

function parse(xml: string) {
  // xmldom reports malformed input through its error handler; a signed assertion never is, so any report is a refusal.
  const problems: string[] = [];
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: (m: string) => problems.push(m), fatalError: (m: string) => problems.push(m) } }).parseFromString(xml, 'text/xml');
  if (problems.length > 0 || !doc.documentElement) throw new Error('unreadable XML');
  return doc;
}

export function assertionFacts(signedAssertionXml: string): AssertionFacts {
  const doc = parse(signedAssertionXml);
  const root = doc.documentElement;
  if (root.namespaceURI !== ASSERTION_NS || root.localName !== 'Assertion') throw new Error('not an assertion');
  const id = root.getAttribute('ID') ?? '';
  const recipients: string[] = [];
  const times: string[] = [];
  const confirmations = root.getElementsByTagNameNS(ASSERTION_NS, 'SubjectConfirmationData');
  for (let i = 0; i < confirmations.length; i++) {
    const data = confirmations.item(i)!;
    recipients.push(data.getAttribute('Recipient') ?? '');
    const end = data.getAttribute('NotOnOrAfter');
    if (end) times.push(end);
  }
  const conditions = root.getElementsByTagNameNS(ASSERTION_NS, 'Conditions');
  for (let i = 0; i < conditions.length; i++) {
    const end = conditions.item(i)!.getAttribute('NotOnOrAfter');
    if (end) times.push(end);
  }
  const valid = times.filter((t) => !Number.isNaN(Date.parse(t))).map((t) => new Date(t).toISOString()).sort();
  return { id, recipients, notOnOrAfter: valid.at(-1) ?? null };
}

/** The Destination of a SAML Response, when it names one. */
export function responseDestination(responseXml: string): string | null {
  const root = parse(responseXml).documentElement;
  if (root.namespaceURI !== PROTOCOL_NS || root.localName !== 'Response') return null;
  return root.getAttribute('Destination') || null;
}
