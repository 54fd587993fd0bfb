// RpcCompare over SOAP (the wcf-http binding) from Node.js: the `soap` package builds the client
// from the WSDL the service serves at the standard ?wsdl address (one self-contained document; the
// host serves it as CoreWCF's ?singleWsdl, since the multi-document form misled this package).
import { readFileSync } from 'node:fs';
import https from 'node:https';
import soap from 'soap';

/**
 * A client for one service, e.g. connect('http://127.0.0.1:8080', 'rpccompare.v1.FileService').
 * An https:// address is called over TLS; ca (the host's tls-certificate.pem, written beside its
 * endpoints file) is then the one root trusted, for the WSDL and for every call.
 */
export async function connect(baseAddress, service, { ca } = {}) {
  const base = baseAddress.replace(/\/$/, '');
  const agent = ca ? new https.Agent({ ca: readFileSync(ca), keepAlive: true }) : undefined;
  const client = await soap.createClientAsync(`${base}/${service}?wsdl`, agent ? { wsdl_options: { httpsAgent: agent } } : {});
  if (agent) client.setSecurity(new soap.ClientSSLSecurity(null, null, readFileSync(ca), { httpsAgent: agent }));
  return client;
}

/** Calls an operation and returns its result element (e.g. PingResult); the request goes in the `request` part. */
export async function invoke(client, operation, request = {}) {
  const [result] = await client[`${operation}Async`]({ request });
  return result?.[`${operation}Result`] ?? {};
}

/** The RpcErrorCode name of a typed RpcFault, or undefined for any other error. */
export function errorCodeOf(error) {
  return error?.root?.Envelope?.Body?.Fault?.detail?.RpcFault?.Code;
}

/** soap gives a repeated element as an array, a single one as an object and none as undefined. */
export function many(value) {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
