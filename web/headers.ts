/**
 * The app's security headers, one definition for both places that serve it: the local
 * runtime (local/web.ts) and CloudFront's response headers policy
 * (infra/constructs/web-app.ts). The Content-Security-Policy allows only the app's own files,
 * its own origin (the API under /v1 and the runtime configuration) and Cognito's sign-in
 * endpoint; no inline script or style, no frames, no plugins.
 *
 * @example
 * ```ts
 * contentSecurityPolicy(['https://cognito-idp.eu-central-1.amazonaws.com']);
 * ```
 */
export const contentSecurityPolicy = (connectTo: readonly string[] = []): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${connectTo.map((origin) => ` ${origin}`).join('')}`,
    "manifest-src 'self'",
    "worker-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');

/** The other headers CloudFront's security headers policy sets, as the local runtime sends them. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  // The camera is the app's own (barcode reading); nothing else is used.
  'permissions-policy': 'camera=(self), microphone=(), geolocation=()',
};
