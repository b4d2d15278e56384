graph():
    %x_1 : f32[512, 768] [#users=2] = placeholder[target=x_1]
    %ln1_w_1 : f32[768] [#users=1] = placeholder[target=ln1_w_1]
    %ln1_b_1 : f32[768] [#users=1] = placeholder[target=ln1_b_1]
    %wqkv_1 : f32[2304, 768] [#users=1] = placeholder[target=wqkv_1]
    %bqkv_1 : f32[2304] [#users=1] = placeholder[target=bqkv_1]
    %wo_1 : f32[768, 768] [#users=1] = placeholder[target=wo_1]
    %bo_1 : f32[768] [#users=1] = placeholder[target=bo_1]
    %ln2_w_1 : f32[768] [#users=1] = placeholder[target=ln2_w_1]
    %ln2_b_1 : f32[768] [#users=1] = placeholder[target=ln2_b_1]
    %w1_1 : f32[3072, 768] [#users=1] = placeholder[target=w1_1]
    %b1_1 : f32[3072] [#users=1] = placeholder[target=b1_1]
    %w2_1 : f32[768, 3072] [#users=1] = placeholder[target=w2_1]
    %b2_1 : f32[768] [#users=1] = placeholder[target=b2_1]
    %native_layer_norm : [#users=3] = call_function[target=torch.ops.aten.native_layer_norm.default](args = (%x_1, [768], %ln1_w_1, %ln1_b_1, 1e-05), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%native_layer_norm, 0), kwargs = {})
    %getitem_1 : [#users=0] = call_function[target=operator.getitem](args = (%native_layer_norm, 1), kwargs = {})
    %getitem_2 : [#users=0] = call_function[target=operator.getitem](args = (%native_layer_norm, 2), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%wqkv_1,), kwargs = {})
    %addmm : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%bqkv_1, %getitem, %t), kwargs = {})
    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%addmm, [512, 3, 12, 64]), kwargs = {})
    %permute : [#users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view, [1, 2, 0, 3]), kwargs = {})
    %unbind : [#users=3] = call_function[target=torch.ops.aten.unbind.int](args = (%permute,), kwargs = {})
    %getitem_3 : [#users=1] = call_function[target=operator.getitem](args = (%unbind, 0), kwargs = {})
    %getitem_4 : [#users=1] = call_function[target=operator.getitem](args = (%unbind, 1), kwargs = {})
    %getitem_5 : [#users=1] = call_function[target=operator.getitem](args = (%unbind, 2), kwargs = {})
    %transpose : [#users=1] = call_function[target=torch.ops.aten.transpose.int](args = (%getitem_4, -2, -1), kwargs = {})
    %expand : [#users=1] = call_function[target=torch.ops.aten.expand.default](args = (%getitem_3, [12, 512, 64]), kwargs = {})
    %_reshape_alias : [#users=1] = call_function[target=torch.ops.aten._reshape_alias.default](args = (%expand, [12, 512, 64], [64, 2304, 1]), kwargs = {})
    %expand_1 : [#users=1] = call_function[target=torch.ops.aten.expand.default](args = (%transpose, [12, 64, 512]), kwargs = {})
    %_reshape_alias_1 : [#users=1] = call_function[target=torch.ops.aten._reshape_alias.default](args = (%expand_1, [12, 64, 512], [64, 1, 2304]), kwargs = {})
    %bmm : [#users=1] = call_function[target=torch.ops.aten.bmm.default](args = (%_reshape_alias, %_reshape_alias_1), kwargs = {})
    %_unsafe_view : [#users=1] = call_function[target=torch.ops.aten._unsafe_view.default](args = (%bmm, [12, 512, 512]), kwargs = {})
    %div : [#users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%_unsafe_view, 8.0), kwargs = {})
    %_softmax : [#users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%div, -1, False), kwargs = {})
    %expand_2 : [#users=1] = call_function[target=torch.ops.aten.expand.default](args = (%_softmax, [12, 512, 512]), kwargs = {})
    %_reshape_alias_2 : [#users=1] = call_function[target=torch.ops.aten._reshape_alias.default](args = (%expand_2, [12, 512, 512], [262144, 512, 1]), kwargs = {})
    %expand_3 : [#users=1] = call_function[target=torch.ops.aten.expand.default](args = (%getitem_5, [12, 512, 64]), kwargs = {})
    %_reshape_alias_3 : [#users=1] = call_function[target=torch.ops.aten._reshape_alias.default](args = (%expand_3, [12, 512, 64], [64, 2304, 1]), kwargs = {})
    %bmm_1 : [#users=1] = call_function[target=torch.ops.aten.bmm.default](args = (%_reshape_alias_2, %_reshape_alias_3), kwargs = {})
    %_unsafe_view_1 : [#users=1] = call_function[target=torch.ops.aten._unsafe_view.default](args = (%bmm_1, [12, 512, 64]), kwargs = {})
    %transpose_1 : [#users=1] = call_function[target=torch.ops.aten.transpose.int](args = (%_unsafe_view_1, 0, 1), kwargs = {})
    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%transpose_1,), kwargs = {memory_format: torch.contiguous_format})
    %_unsafe_view_2 : [#users=1] = call_function[target=torch.ops.aten._unsafe_view.default](args = (%clone, [512, 768]), kwargs = {})
    %t_1 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%wo_1,), kwargs = {})
    %addmm_1 : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%bo_1, %_unsafe_view_2, %t_1), kwargs = {})
    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %addmm_1), kwargs = {})
    %native_layer_norm_1 : [#users=3] = call_function[target=torch.ops.aten.native_layer_norm.default](args = (%add, [768], %ln2_w_1, %ln2_b_1, 1e-05), kwargs = {})
    %getitem_6 : [#users=1] = call_function[target=operator.getitem](args = (%native_layer_norm_1, 0), kwargs = {})
    %getitem_7 : [#users=0] = call_function[target=operator.getitem](args = (%native_layer_norm_1, 1), kwargs = {})
    %getitem_8 : [#users=0] = call_function[target=operator.getitem](args = (%native_layer_norm_1, 2), kwargs = {})
    %t_2 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%w1_1,), kwargs = {})
    %addmm_2 : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b1_1, %getitem_6, %t_2), kwargs = {})
    %gelu : [#users=1] = call_function[target=torch.ops.aten.gelu.default](args = (%addmm_2,), kwargs = {})
    %t_3 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%w2_1,), kwargs = {})
    %addmm_3 : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b2_1, %gelu, %t_3), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %addmm_3), kwargs = {})
    return add_1
