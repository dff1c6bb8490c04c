// How an amount of money is written, everywhere it is shown (signal titles, evidence, charts): the
// currency's symbol where it has a common one, else its ISO code and a space; no currency, no symbol (a
// price read without one is not guessed to be dollars); whole amounts without decimals, others with two.

const SYMBOL: Record<string, string> = { USD: "$", EUR: "€", GBP: "£", JPY: "¥", INR: "₹" };

/** `$`, `€`, `CHF ` … or "" without a currency. */
export function currencyPrefix(currency: string | null | undefined): string {
  return currency ? (SYMBOL[currency] ?? `${currency} `) : "";
}

/** `$1,200`, `€9.50`, `CHF 49`, `12` (no currency). */
export function formatAmount(n: number, currency?: string | null): string {
  const digits = n.toLocaleString("en-US", {
    minimumFractionDigits: Number.isInteger(n) ? 0 : 2,
    maximumFractionDigits: 2,
  });
  return `${currencyPrefix(currency)}${digits}`;
}
