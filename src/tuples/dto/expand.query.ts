import { IsString } from 'class-validator';
import { MaxDepthQuery } from './max-depth.query.js';

/** GET /expand: the subject set to expand. */
export class ExpandQuery extends MaxDepthQuery {
  @IsString()
  namespace!: string;

  @IsString()
  object!: string;

  @IsString()
  relation!: string;
}
