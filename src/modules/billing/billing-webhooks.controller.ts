import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { BillingWebhooks, WebhookAnswer } from './billing-webhooks.service';

/** Events from the payment provider and the code-host marketplace; each verified on its raw body. */
@Controller('webhooks')
export class BillingWebhooksController {
  constructor(private readonly webhooks: BillingWebhooks) {}

  @Public()
  @Post('billing')
  @HttpCode(200)
  billing(@Req() req: Request, @Headers('stripe-signature') signature?: string): Promise<WebhookAnswer> {
    return this.webhooks.billing(req.body, signature);
  }

  @Public()
  @Post('codehost-marketplace')
  @HttpCode(200)
  marketplace(@Req() req: Request, @Headers('x-hub-signature-256') signature?: string, @Headers('x-codehost-delivery') delivery?: string): Promise<WebhookAnswer> {
    return this.webhooks.marketplace(req.body, signature, delivery);
  }
}
