import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';

/**
 * The groups the functions check in the `cognito:groups` claim (lib/contract/roles.ts, checked by
 * lib/http/authorize.ts), each described as what its members may do (SPEC "Authentication"), which
 * is what an admin reads.
 */
const GROUPS = {
  operator: 'May scan, save boxes and query',
  supervisor: 'May also edit and undo boxings, close and reopen zongpais, void scans and read the change feed',
  integration: "An ERP's technical user: may only read box info, zongpais, orders, locations and the change feed",
} as const;

/** The handhelds' app client: username and password, then refresh tokens for the rest of the shift. */
const HANDHELD_CLIENT: cognito.UserPoolClientOptions = {
  generateSecret: false,
  authFlows: { userPassword: true, userSrp: true },
  disableOAuth: true,
  preventUserExistenceErrors: true,
  idTokenValidity: Duration.hours(1),
  accessTokenValidity: Duration.hours(1),
  // One shift: a handheld left signed in does not carry someone's identity into the next day.
  refreshTokenValidity: Duration.hours(12),
  enableTokenRevocation: true,
};

export interface AuthProps {
  /** Use this user pool (with its own groups and app client) instead of creating one. */
  readonly existingUserPoolId?: string;
  readonly deletionProtection: boolean;
}

/**
 * Who may call the API: a Cognito user pool of warehouse staff, created by admins only, in the
 * groups `operator`, `supervisor` and `integration` (read-only ERP users), with an app client for the handhelds (username and
 * password, then refresh tokens for the rest of the shift). Or an existing pool by id, with
 * an app client of its own created in it.
 *
 * @example
 * ```ts
 * const auth = new Auth(this, 'Auth', { deletionProtection: true });
 * new apigateway.CognitoUserPoolsAuthorizer(this, 'Authorizer', { cognitoUserPools: [auth.userPool] });
 * ```
 */
export class Auth extends Construct {
  readonly userPool: cognito.IUserPool;
  /**
   * The handhelds' app client, also in an existing pool: the functions accept only ID tokens
   * issued to it (`aud`), so other applications' users of a shared pool are refused.
   */
  readonly client: cognito.UserPoolClient;

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);
    if (props.existingUserPoolId) {
      this.userPool = cognito.UserPool.fromUserPoolId(this, 'UserPool', props.existingUserPoolId);
      this.client = new cognito.UserPoolClient(this, 'Handhelds', { userPool: this.userPool, ...HANDHELD_CLIENT });
      return;
    }
    const pool = new cognito.UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      signInAliases: { username: true },
      signInCaseSensitive: false,
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      // Shared handhelds make a second factor per person impractical; supervisors may still add TOTP.
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { sms: false, otp: true },
      // Staff may have no e-mail or phone on file: an admin resets the password.
      accountRecovery: cognito.AccountRecovery.NONE,
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      deletionProtection: props.deletionProtection,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const [group, description] of Object.entries(GROUPS)) {
      new cognito.CfnUserPoolGroup(this, `Group-${group}`, {
        userPoolId: pool.userPoolId,
        groupName: group,
        description,
      });
    }
    this.client = pool.addClient('Handhelds', HANDHELD_CLIENT);
    this.userPool = pool;

    Validations.of(pool).acknowledge(
      {
        id: 'AwsSolutions-COG2',
        reason:
          'Handhelds are shared between shifts and staff carry no second device on the floor; MFA is optional (TOTP) so supervisors can enable it.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'The Plus plan (threat protection) is billed per active user with no free tier; the pool holds only staff created by admins (no self sign-up) behind a strong password policy. Switch featurePlan to PLUS to add it.',
      },
    );
  }
}
