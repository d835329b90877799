/*
 * The optimizer ops of the ai.onnx.preview.training domain as elementwise
 * math (src/onnx/README.md, "Training-domain ops"). Inputs: R (learning
 * rate, scalar), T (update count, int64 scalar), then the k tensors X, their
 * k gradients G and their k state tensors (one or two groups); outputs: the k
 * new X, then the new states. Each update follows the operator's definition:
 *
 *   Adagrad:  r = R / (1 + T*decay_factor); g = norm_coefficient*X + G;
 *             H' = H + g*g; X' = X - r*g / (sqrt(H') + epsilon)
 *   Momentum: g = norm_coefficient*X + G; b = T > 0 ? beta : 1;
 *             V' = alpha*V + b*g; X' = X - R*V' (standard) or
 *             X' = X - R*(g + alpha*V') (nesterov)
 *   Adam:     g = norm_coefficient*X + G; V' = alpha*V + (1-alpha)*g;
 *             H' = beta*H + (1-beta)*g*g;
 *             r = T > 0 ? R*sqrt(1 - beta^T)/(1 - alpha^T) : R;
 *             X' = (1 - norm_coefficient_post)*(X - r*V'/(sqrt(H') + epsilon))
 */
#include <string.h>

#include "onnx/onnx_internal.h"

/* k from the input count: n_input = 2 + groups*k; outputs (1 + states)*k. */
static oa_status groups(onnx_node_ctx *c, uint32_t per, uint32_t *k)
{
    size_t ni = c->np->n_input, no = c->np->n_output;
    if (ni < 2 + per || (ni - 2) % per != 0) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "has %zu inputs; R, T and %u groups of equal size are expected", ni, per);
    }
    *k = (uint32_t)((ni - 2) / per);
    if (no != (size_t)(per - 1) * *k) {
        return ONNX_FAIL(c, OA_E_PARSE_MODEL, "has %zu outputs for %u tensors (%u expected)", no, *k, (per - 1) * *k);
    }
    return OA_OK;
}

/* g = norm_coefficient*X + G */
static onnx_tv regularized(onnx_xb *b, onnx_tv x, onnx_tv g, onnx_tv norm)
{
    return oa_xb_bin(b, OA_OP_ADD, "g_reg", oa_xb_bin(b, OA_OP_MUL, "norm_x", norm, x), g);
}

/* T > 0 as a bool scalar (T cast to float) */
static onnx_tv t_positive(onnx_xb *b, onnx_tv *tf)
{
    *tf = oa_xb_cast(b, "t_float", oa_xb_in(b, 1), OA_DT_FLOAT);
    return oa_xb_bin(b, OA_OP_GREATER, "t_positive", *tf, oa_xb_f32(b, "zero", 0.0f));
}

oa_status oa_onnx_op_adagrad(onnx_node_ctx *c)
{
    float decay, eps, normc;
    uint32_t k;
    oa_status st;
    if ((st = oa_onnx_attr_float(c, "decay_factor", 0.0f, &decay)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "epsilon", 0.0f, &eps)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "norm_coefficient", 0.0f, &normc)) != OA_OK || (st = groups(c, 3, &k)) != OA_OK) {
        return st;
    }
    onnx_xb b = {c, OA_OK};
    onnx_tv tf = oa_xb_cast(&b, "t_float", oa_xb_in(&b, 1), OA_DT_FLOAT);
    onnx_tv denom = oa_xb_bin(&b, OA_OP_ADD, "r_denom", oa_xb_f32(&b, "one", 1.0f),
                              oa_xb_bin(&b, OA_OP_MUL, "t_decay", tf, oa_xb_f32(&b, "decay", decay)));
    onnx_tv r = oa_xb_bin(&b, OA_OP_REAL_DIV, "r", oa_xb_in(&b, 0), denom);
    onnx_tv norm = oa_xb_f32(&b, "norm_coefficient", normc), epsv = oa_xb_f32(&b, "epsilon", eps);
    for (uint32_t i = 0; i < k; i++) {
        onnx_tv x = oa_xb_in(&b, 2 + i), g = oa_xb_in(&b, 2 + k + i), h = oa_xb_in(&b, 2 + 2 * k + i);
        onnx_tv gr = regularized(&b, x, g, norm);
        onnx_tv h2 = oa_xb_bin(&b, OA_OP_ADD, "h_new", h, oa_xb_bin(&b, OA_OP_MUL, "g_sq", gr, gr));
        onnx_tv ad = oa_xb_bin(&b, OA_OP_ADD, "h_adaptive", oa_xb_un(&b, OA_OP_SQRT, "h_sqrt", h2), epsv);
        onnx_tv step = oa_xb_bin(&b, OA_OP_REAL_DIV, "step", oa_xb_bin(&b, OA_OP_MUL, "r_g", r, gr), ad);
        oa_xb_out(&b, i, oa_xb_bin(&b, OA_OP_SUB, "x_new", x, step));
        oa_xb_out(&b, k + i, h2);
    }
    return b.st;
}

oa_status oa_onnx_op_momentum(onnx_node_ctx *c)
{
    float alpha, beta, normc;
    const char *mode;
    uint32_t k;
    oa_status st;
    if ((st = oa_onnx_attr_required(c, "alpha")) != OA_OK || (st = oa_onnx_attr_required(c, "beta")) != OA_OK ||
        (st = oa_onnx_attr_required(c, "mode")) != OA_OK ||
        (st = oa_onnx_attr_required(c, "norm_coefficient")) != OA_OK ||
        (st = oa_onnx_attr_float(c, "alpha", 0.0f, &alpha)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "beta", 0.0f, &beta)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "norm_coefficient", 0.0f, &normc)) != OA_OK ||
        (st = oa_onnx_attr_str(c, "mode", "", &mode)) != OA_OK || (st = groups(c, 3, &k)) != OA_OK) {
        return st;
    }
    const bool nesterov = strcmp(mode, "nesterov") == 0;
    if (!nesterov && strcmp(mode, "standard") != 0) {
        return ONNX_FAIL(c, OA_E_PARAM, "mode \"%s\" is neither \"standard\" nor \"nesterov\"", mode);
    }
    onnx_xb b = {c, OA_OK};
    onnx_tv tf;
    onnx_tv pos = t_positive(&b, &tf);
    const onnx_tv sel[3] = {pos, oa_xb_f32(&b, "beta", beta), oa_xb_f32(&b, "one", 1.0f)};
    onnx_tv beta_adj = oa_xb_op(&b, OA_OP_SELECT_V2, "beta_adjusted", sel, 3);
    onnx_tv norm = oa_xb_f32(&b, "norm_coefficient", normc), alphav = oa_xb_f32(&b, "alpha", alpha);
    onnx_tv r = oa_xb_in(&b, 0);
    for (uint32_t i = 0; i < k; i++) {
        onnx_tv x = oa_xb_in(&b, 2 + i), g = oa_xb_in(&b, 2 + k + i), v = oa_xb_in(&b, 2 + 2 * k + i);
        onnx_tv gr = regularized(&b, x, g, norm);
        onnx_tv v2 = oa_xb_bin(&b, OA_OP_ADD, "v_new", oa_xb_bin(&b, OA_OP_MUL, "alpha_v", alphav, v),
                               oa_xb_bin(&b, OA_OP_MUL, "beta_g", beta_adj, gr));
        onnx_tv dir = nesterov ? oa_xb_bin(&b, OA_OP_ADD, "nesterov", gr,
                                           oa_xb_bin(&b, OA_OP_MUL, "alpha_v_new", alphav, v2))
                               : v2;
        oa_xb_out(&b, i, oa_xb_bin(&b, OA_OP_SUB, "x_new", x, oa_xb_bin(&b, OA_OP_MUL, "step", r, dir)));
        oa_xb_out(&b, k + i, v2);
    }
    return b.st;
}

oa_status oa_onnx_op_adam(onnx_node_ctx *c)
{
    float alpha, beta, eps, normc, post;
    uint32_t k;
    oa_status st;
    if ((st = oa_onnx_attr_float(c, "alpha", 0.9f, &alpha)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "beta", 0.999f, &beta)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "epsilon", 1e-6f, &eps)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "norm_coefficient", 0.0f, &normc)) != OA_OK ||
        (st = oa_onnx_attr_float(c, "norm_coefficient_post", 0.0f, &post)) != OA_OK ||
        (st = groups(c, 4, &k)) != OA_OK) {
        return st;
    }
    onnx_xb b = {c, OA_OK};
    onnx_tv tf;
    onnx_tv pos = t_positive(&b, &tf);
    onnx_tv one = oa_xb_f32(&b, "one", 1.0f), alphav = oa_xb_f32(&b, "alpha", alpha);
    onnx_tv betav = oa_xb_f32(&b, "beta", beta);
    /* R * sqrt(1 - beta^T) / (1 - alpha^T) when T > 0 */
    onnx_tv bt = oa_xb_bin(&b, OA_OP_SUB, "one_minus_beta_t", one, oa_xb_bin(&b, OA_OP_POW, "beta_t", betav, tf));
    onnx_tv at = oa_xb_bin(&b, OA_OP_SUB, "one_minus_alpha_t", one, oa_xb_bin(&b, OA_OP_POW, "alpha_t", alphav, tf));
    onnx_tv r = oa_xb_in(&b, 0);
    onnx_tv radj = oa_xb_bin(&b, OA_OP_REAL_DIV, "r_bias", oa_xb_bin(&b, OA_OP_MUL, "r_sqrt", r,
                                                                     oa_xb_un(&b, OA_OP_SQRT, "sqrt_beta_t", bt)),
                             at);
    const onnx_tv sel[3] = {pos, radj, r};
    onnx_tv ra = oa_xb_op(&b, OA_OP_SELECT_V2, "r_adjusted", sel, 3);
    onnx_tv norm = oa_xb_f32(&b, "norm_coefficient", normc), epsv = oa_xb_f32(&b, "epsilon", eps);
    onnx_tv one_alpha = oa_xb_f32(&b, "one_minus_alpha", 1.0f - alpha);
    onnx_tv one_beta = oa_xb_f32(&b, "one_minus_beta", 1.0f - beta);
    onnx_tv postv = oa_xb_f32(&b, "one_minus_post", 1.0f - post);
    for (uint32_t i = 0; i < k; i++) {
        onnx_tv x = oa_xb_in(&b, 2 + i), g = oa_xb_in(&b, 2 + k + i);
        onnx_tv v = oa_xb_in(&b, 2 + 2 * k + i), h = oa_xb_in(&b, 2 + 3 * k + i);
        onnx_tv gr = regularized(&b, x, g, norm);
        onnx_tv v2 = oa_xb_bin(&b, OA_OP_ADD, "v_new", oa_xb_bin(&b, OA_OP_MUL, "alpha_v", alphav, v),
                               oa_xb_bin(&b, OA_OP_MUL, "one_alpha_g", one_alpha, gr));
        onnx_tv h2 = oa_xb_bin(&b, OA_OP_ADD, "h_new", oa_xb_bin(&b, OA_OP_MUL, "beta_h", betav, h),
                               oa_xb_bin(&b, OA_OP_MUL, "one_beta_g2", one_beta,
                                         oa_xb_bin(&b, OA_OP_MUL, "g_sq", gr, gr)));
        onnx_tv hs = oa_xb_bin(&b, OA_OP_ADD, "h_sqrt", oa_xb_un(&b, OA_OP_SQRT, "sqrt_h", h2), epsv);
        onnx_tv step = oa_xb_bin(&b, OA_OP_MUL, "step", ra, oa_xb_bin(&b, OA_OP_REAL_DIV, "v_over_h", v2, hs));
        onnx_tv xn = oa_xb_bin(&b, OA_OP_SUB, "x_new", x, step);
        oa_xb_out(&b, i, oa_xb_bin(&b, OA_OP_MUL, "x_final", postv, xn));
        oa_xb_out(&b, k + i, v2);
        oa_xb_out(&b, 2 * k + i, h2);
    }
    return b.st;
}
