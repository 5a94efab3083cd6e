import type { DataApiAction } from '../../grants.ts';
import { accessDenied, DataApiError } from './errors.ts';
import type { RequestTarget } from './requests.ts';

/** The cluster, secret and database the emulator stands for. */
export interface DataApiTarget {
  readonly resourceArn: string;
  readonly secretArn: string;
  readonly database: string;
}

/**
 * A caller the emulator knows: the credentials the local runtime hands one function (as Lambda
 * hands each function its role's), and the Data API operations its role is granted on the
 * cluster, from `infra/grants.ts`. A grant includes reading the cluster's secret.
 */
export interface DataApiIdentity {
  /** The function, e.g. `BoxSave`; shown in AccessDeniedException as its assumed role. */
  readonly name: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly operations: readonly DataApiAction[];
}

const principal = (identity: DataApiIdentity): string =>
  `arn:aws:sts::000000000000:assumed-role/${identity.name}/${identity.name}`;

/**
 * What IAM and the Data API check before a statement runs, in AWS's order: the operation on the
 * named cluster (the grants name this cluster only, so another ARN is denied like an ungranted
 * operation), reading the named secret, then the database.
 *
 * @example
 * ```ts
 * checkAccess(identity, 'BeginTransaction', request.target, target); // throws AccessDeniedException for a request function
 * ```
 */
export const checkAccess = (
  identity: DataApiIdentity,
  operation: DataApiAction,
  requested: RequestTarget,
  target: DataApiTarget,
): void => {
  if (!identity.operations.includes(operation) || requested.resourceArn !== target.resourceArn) {
    throw accessDenied(principal(identity), `rds-data:${operation}`, requested.resourceArn);
  }
  if (requested.secretArn !== target.secretArn) {
    throw accessDenied(principal(identity), 'secretsmanager:GetSecretValue', requested.secretArn);
  }
  if (requested.database !== undefined && requested.database !== target.database) {
    // What PostgreSQL answers the Data API's connection to a database the cluster does not have.
    throw new DataApiError(
      'DatabaseErrorException',
      400,
      `FATAL: database "${requested.database}" does not exist; SQLState: 3D000`,
    );
  }
};
