/** JWT access and refresh tokens (HS256, signed with the service secret key) through jose. */
import { jwtVerify, SignJWT } from 'jose';

export type TokenType = 'access' | 'refresh';

const LIFETIME: Record<TokenType, string> = { access: '1h', refresh: '7d' };

export class TokenSigner {
  private readonly key: Uint8Array;
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(userId: string, type: TokenType): Promise<string> {
    return new SignJWT({ type })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(LIFETIME[type])
      .sign(this.key);
  }

  /** The user id of a valid token of `type`, or undefined. */
  async verify(token: string, type: TokenType): Promise<string | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      return payload.type === type && typeof payload.sub === 'string' ? payload.sub : undefined;
    } catch {
      return undefined;
    }
  }
}
