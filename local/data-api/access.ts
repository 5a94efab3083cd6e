import type { DataApiAction } from '../../infra/grants.ts';
import { accessDenied, DataApiError } from './errors.ts';
import type { RequestTarget } from './requests.ts';

/** A database user of the cluster and the Secrets Manager secret a call names to sign in as it. */
export interface DatabaseUserSecret {
  readonly secretArn: string;
  /** The role the call's statements run as (`SET ROLE`): its privileges are the ones checked. */
  readonly username: string;
}

/** The cluster, its secrets and the database the emulator stands for. */
export interface DataApiTarget {
  readonly resourceArn: string;
  /** The master user's secret: a call naming it runs as the backend's own connection user. */
  readonly secretArn: string;
  readonly database: string;
  /** The cluster's other database users, each behind its own secret. */
  readonly users?: readonly DatabaseUserSecret[];
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
  /**
   * The secrets its role may read (`secretsmanager:GetSecretValue`), as the stack grants each
   * function its own database user's. @default every secret of the target (an operator's own credentials)
   */
  readonly secrets?: readonly string[];
}

const principal = (identity: DataApiIdentity): string =>
  `arn:aws:sts::000000000000:assumed-role/${identity.name}/${identity.name}`;

/**
 * What IAM and the Data API check before a statement runs, in AWS's order: the operation on the
 * named cluster (the grants name this cluster only, so another ARN is denied like an ungranted
 * operation), reading the named secret (one the identity's role may read, of a user the cluster
 * has), then the database. Answers the database user the call signs in as: undefined for the
 * master, the backend's own connection user.
 *
 * @example
 * ```ts
 * checkAccess(identity, 'BeginTransaction', request.target, target); // throws AccessDeniedException for a request function
 * checkAccess(reader, 'ExecuteStatement', request.target, target); // 'cargo_reader'
 * ```
 */
export const checkAccess = (
  identity: DataApiIdentity,
  operation: DataApiAction,
  requested: RequestTarget,
  target: DataApiTarget,
): string | undefined => {
  if (!identity.operations.includes(operation) || requested.resourceArn !== target.resourceArn) {
    throw accessDenied(principal(identity), `rds-data:${operation}`, requested.resourceArn);
  }
  const user = target.users?.find((candidate) => candidate.secretArn === requested.secretArn);
  const known = user !== undefined || requested.secretArn === target.secretArn;
  if (!known || (identity.secrets !== undefined && !identity.secrets.includes(requested.secretArn))) {
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
  return user?.username;
};
