/** `expandTree`: `children` is left out when empty, as Keto does. */
export class ExpandTreeDto {
  type!: 'union' | 'exclusion' | 'intersection' | 'leaf';
  subject!: string;
  children?: ExpandTreeDto[];
}
