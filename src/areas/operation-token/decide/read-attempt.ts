// GET …/attempt: the attempt's status, bare (Vault's GenerateRootStatusResponse); the OTP is never shown here.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { OTP_LENGTH } from '../../core/crypto/otp.js';
import { reply } from '../../../kernel/http/http.js';
import { attemptStatus } from '../operation-token.js';
import type { Strategy } from './strategy.js';

export const decide = (s: Strategy) => (ctx: RequestContext): Outcome => s.precondition(ctx.cluster, s.attemptPath) ?? reply.bare(attemptStatus(ctx.cluster, '', OTP_LENGTH));
