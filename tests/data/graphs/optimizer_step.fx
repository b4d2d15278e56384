graph():
    %p_1 : [#users=1] = placeholder[target=p_1]
    %g_1 : [#users=2] = placeholder[target=g_1]
    %m_1 : [#users=1] = placeholder[target=m_1]
    %v_1 : [#users=1] = placeholder[target=v_1]
    %ema_1 : [#users=1] = placeholder[target=ema_1]
    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%m_1,), kwargs = {})
    %clone_1 : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%v_1,), kwargs = {})
    %clone_2 : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%p_1,), kwargs = {})
    %lerp_ : [#users=3] = call_function[target=torch.ops.aten.lerp_.Scalar](args = (%clone, %g_1, 0.1), kwargs = {})
    %mul_ : [#users=1] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%clone_1, 0.999), kwargs = {})
    %addcmul_ : [#users=3] = call_function[target=torch.ops.aten.addcmul_.default](args = (%mul_, %g_1, %g_1), kwargs = {value: 0.001})
    %div : [#users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%addcmul_, 0.001), kwargs = {})
    %sqrt : [#users=1] = call_function[target=torch.ops.aten.sqrt.default](args = (%div,), kwargs = {})
    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%sqrt, 1e-08), kwargs = {})
    %addcdiv_ : [#users=5] = call_function[target=torch.ops.aten.addcdiv_.default](args = (%clone_2, %lerp_, %add_), kwargs = {value: -0.01})
    %full_like : [#users=1] = call_function[target=torch.ops.aten.full_like.default](args = (%addcdiv_, 0.9), kwargs = {dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False})
    %ones_like : [#users=1] = call_function[target=torch.ops.aten.ones_like.default](args = (%addcdiv_,), kwargs = {dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False})
    %lerp : [#users=1] = call_function[target=torch.ops.aten.lerp.Scalar](args = (%full_like, %ones_like, 0.5), kwargs = {})
    %rsub : [#users=1] = call_function[target=torch.ops.aten.rsub.Scalar](args = (%lerp, 1), kwargs = {})
    %lerp_1 : [#users=1] = call_function[target=torch.ops.aten.lerp.Tensor](args = (%ema_1, %addcdiv_, %rsub), kwargs = {})
    %addcmul : [#users=1] = call_function[target=torch.ops.aten.addcmul.default](args = (%addcdiv_, %lerp_, %addcmul_), kwargs = {value: 2})
    return (addcdiv_, lerp_, addcmul_, lerp_1, addcmul)
