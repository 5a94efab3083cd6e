import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * What a deployed function's AWS clients get in place of the SDK's default credential chain
 * (`@aws-sdk/credential-provider-node`, substituted at bundling by `ServiceFunction`): the
 * credentials of the function's role, which Lambda puts in its environment
 * (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`). The chain's other sources
 * (SSO, shared files, instance metadata, web identity) never apply inside Lambda, and they are about
 * a fifth of every bundle.
 *
 * @example
 * ```ts
 * const credentials = defaultProvider()(); // the role's credentials from the environment
 * ```
 */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
