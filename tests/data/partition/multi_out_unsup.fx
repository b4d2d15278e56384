graph():
    %x : [#users=1] = placeholder[target=x]
    %split_tensor : [#users=2] = call_function[target=torch.ops.aten.split.Tensor](args = (%x, 2), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%split_tensor, 0), kwargs = {})
    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%split_tensor, 1), kwargs = {})
    %relu_default : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%getitem,), kwargs = {})
    %neg_default : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%getitem_1,), kwargs = {})
    %add_tensor : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu_default, %neg_default), kwargs = {})
    return add_tensor