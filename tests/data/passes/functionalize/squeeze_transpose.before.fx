graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %squeeze : [#users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%clone, 1), kwargs = {})
    %transpose : [#users=1] = call_function[target=torch.ops.aten.transpose.int](args = (%squeeze, 0, 1), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%transpose, 0, 1), kwargs = {})
    %sub_ : [#users=0] = call_function[target=torch.ops.aten.sub_.Tensor](args = (%select, 4), kwargs = {})
    return clone
