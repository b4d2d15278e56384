graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %view : [#users=1] = call_function[target=torch.ops.aten.view.dtype](args = (%clone, torch.int32), kwargs = {})
    %detach : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%view,), kwargs = {})
    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%detach, 1), kwargs = {})
    %view_1 : [#users=1] = call_function[target=torch.ops.aten.view.dtype](args = (%y_1, torch.int16), kwargs = {})
    %detach_1 : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%view_1,), kwargs = {})
    %add__1 : [#users=0] = call_function[target=torch.ops.aten.add_.Tensor](args = (%detach_1, 3), kwargs = {})
    %_to_copy : [#users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%add_,), kwargs = {dtype: torch.float32})
    return (clone, _to_copy)
