graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=2] = placeholder[target=y_1]
    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %view : [#users=1] = call_function[target=torch.ops.aten.view.dtype](args = (%clone, torch.int32), kwargs = {})
    %detach : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%view,), kwargs = {})
    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%detach, 1), kwargs = {})
    %view_1 : [#users=1] = call_function[target=torch.ops.aten.view.dtype](args = (%y_1, torch.int16), kwargs = {})
    %detach_1 : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%view_1,), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%detach_1, 3), kwargs = {})
    %_to_copy : [#users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%add,), kwargs = {dtype: torch.float32})
    %view_2 : [#users=1] = call_function[target=torch.ops.aten.view.dtype](args = (%add, torch.float32), kwargs = {})
    %detach_2 : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%view_2,), kwargs = {})
    %view_3 : [#users=1] = call_function[target=torch.ops.aten.view.dtype](args = (%add_1, torch.float32), kwargs = {})
    %detach_3 : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%view_3,), kwargs = {})
    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%y_1, %detach_3), kwargs = {})
    return (detach_2, _to_copy)
