// The OFREP web provider's chunk (`flag-provider-ofrep-*.js`, a flag chunk of bundle-budget.json):
// loaded by flag-provider-runtime.ts only for a profile with `flagProvider: "ofrep"`, so the
// default profile's pages never fetch it.
export { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
