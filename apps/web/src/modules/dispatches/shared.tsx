/** The brand's name for file names and headers ('' = every brand). */
export const brandLabel = (brands: { id: number; name: string }[] | undefined, id: number) =>
  brands?.find((b) => b.id === id)?.name ?? '';
