graph():
    %logits_1 : [#users=2] = placeholder[target=logits_1]
    %labels_1 : [#users=2] = placeholder[target=labels_1]
    %seg_1 : [#users=1] = placeholder[target=seg_1]
    %seg_labels_1 : [#users=1] = placeholder[target=seg_labels_1]
    %pred_1 : [#users=4] = placeholder[target=pred_1]
    %target_1 : [#users=5] = placeholder[target=target_1]
    %prob_logits_1 : [#users=1] = placeholder[target=prob_logits_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %_log_softmax : [#users=1] = call_function[target=torch.ops.aten._log_softmax.default](args = (%logits_1, 1, False), kwargs = {})
    %nll_loss_forward : [#users=2] = call_function[target=torch.ops.aten.nll_loss_forward.default](args = (%_log_softmax, %labels_1, %w_1, 1, 2), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%nll_loss_forward, 0), kwargs = {})
    %getitem_1 : [#users=0] = call_function[target=operator.getitem](args = (%nll_loss_forward, 1), kwargs = {})
    %_log_softmax_1 : [#users=1] = call_function[target=torch.ops.aten._log_softmax.default](args = (%logits_1, 1, False), kwargs = {})
    %nll_loss_forward_1 : [#users=2] = call_function[target=torch.ops.aten.nll_loss_forward.default](args = (%_log_softmax_1, %labels_1, None, 0, -100), kwargs = {})
    %getitem_2 : [#users=1] = call_function[target=operator.getitem](args = (%nll_loss_forward_1, 0), kwargs = {})
    %getitem_3 : [#users=0] = call_function[target=operator.getitem](args = (%nll_loss_forward_1, 1), kwargs = {})
    %_log_softmax_2 : [#users=1] = call_function[target=torch.ops.aten._log_softmax.default](args = (%seg_1, 1, False), kwargs = {})
    %nll_loss2d_forward : [#users=2] = call_function[target=torch.ops.aten.nll_loss2d_forward.default](args = (%_log_softmax_2, %seg_labels_1, None, 1, -100), kwargs = {})
    %getitem_4 : [#users=1] = call_function[target=operator.getitem](args = (%nll_loss2d_forward, 0), kwargs = {})
    %getitem_5 : [#users=0] = call_function[target=operator.getitem](args = (%nll_loss2d_forward, 1), kwargs = {})
    %mse_loss : [#users=1] = call_function[target=torch.ops.aten.mse_loss.default](args = (%pred_1, %target_1), kwargs = {})
    %smooth_l1_loss : [#users=1] = call_function[target=torch.ops.aten.smooth_l1_loss.default](args = (%pred_1, %target_1, 2, 0.5), kwargs = {})
    %huber_loss : [#users=1] = call_function[target=torch.ops.aten.huber_loss.default](args = (%pred_1, %target_1, 1, 0.7), kwargs = {})
    %sigmoid : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%prob_logits_1,), kwargs = {})
    %gt : [#users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%target_1, 0), kwargs = {})
    %_to_copy : [#users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%gt,), kwargs = {dtype: torch.float32})
    %binary_cross_entropy : [#users=1] = call_function[target=torch.ops.aten.binary_cross_entropy.default](args = (%sigmoid, %_to_copy, None, 0), kwargs = {})
    %gt_1 : [#users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%target_1, 0), kwargs = {})
    %_to_copy_1 : [#users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%gt_1,), kwargs = {dtype: torch.float32})
    %full : [#users=1] = call_function[target=torch.ops.aten.full.default](args = ([5], 2.0), kwargs = {device: cpu, pin_memory: False})
    %binary_cross_entropy_with_logits : [#users=1] = call_function[target=torch.ops.aten.binary_cross_entropy_with_logits.default](args = (%pred_1, %_to_copy_1, None, %full), kwargs = {})
    return (getitem, getitem_2, getitem_4, mse_loss, smooth_l1_loss, huber_loss, binary_cross_entropy, binary_cross_entropy_with_logits)
