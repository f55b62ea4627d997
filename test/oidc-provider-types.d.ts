/** oidc-provider ships no type declarations; the test fixture uses it untyped. */
declare module 'oidc-provider' {
  const Provider: any;
  export default Provider;
}
