import { applyDecorators, Controller } from '@nestjs/common';
import { OnListener } from '../http/listener.js';
import { AdminAuth, PublicAccess } from './auth-marker.js';

/** A controller of the admin API: admin listener only (also under `/admin`), admin credential required. */
export function AdminController(path = ''): ClassDecorator {
  return applyDecorators(OnListener('admin'), AdminAuth(), Controller(path));
}

/** A controller of the public API: public listener only, open unless a handler says otherwise. */
export function PublicController(path = ''): ClassDecorator {
  return applyDecorators(OnListener('public'), PublicAccess(), Controller(path));
}
