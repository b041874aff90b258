// @lhncbc/ucum-lhc ships no types; src/ucum-units.ts reads the two calls it makes through an interface of its own.
declare module '@lhncbc/ucum-lhc' {
  const ucum: unknown;
  export default ucum;
}
