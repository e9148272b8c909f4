// The cluster's cryptography: root key shares, token encoding, activation tokens, sealed credentials.
export * from './shamir.js';
export * from './otp.js';
export * from './pgp.js';
export * from './activation-token.js';
export * from './sealed-box.js';
export * from './batch-token.js';
