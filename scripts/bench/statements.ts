/** The statements of one request, each as its first words: those inside its transactions, and those outside. */
export interface Statements {
  transactions: number;
  inTransaction: string[];
  outside: string[];
}

/** One write's statements on Medora and on its bare twin. */
export interface RoundTrips {
  name: string;
  medora: Statements;
  twin: Statements;
}

/** The same statements in the same order inside the transaction, and as many outside it. */
export const sameStatements = ({ medora, twin }: RoundTrips) =>
  medora.transactions === twin.transactions &&
  medora.outside.length === twin.outside.length &&
  medora.inTransaction.length === twin.inTransaction.length &&
  medora.inTransaction.every((sql, i) => sql === twin.inTransaction[i]);
