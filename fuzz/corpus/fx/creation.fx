graph():
    %x_1 : [#users=3] = placeholder[target=x_1]
    %ones_like : [#users=1] = call_function[target=torch.ops.aten.ones_like.default](args = (%x_1,), kwargs = {dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False})
    %zeros : [#users=1] = call_function[target=torch.ops.aten.zeros.default](args = ([2, 3],), kwargs = {dtype: torch.float32, device: cpu, pin_memory: False})
    %full : [#users=1] = call_function[target=torch.ops.aten.full.default](args = ([2, 3], 0.1), kwargs = {device: cpu, pin_memory: False})
    %_to_copy : [#users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%x_1,), kwargs = {dtype: torch.float64})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%_to_copy, 3), kwargs = {})
    %_to_copy_1 : [#users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%x_1,), kwargs = {dtype: torch.int32})
    %empty : [#users=1] = call_function[target=torch.ops.aten.empty.memory_format](args = ([2, 3],), kwargs = {device: cpu, pin_memory: False})
    %fill_ : [#users=1] = call_function[target=torch.ops.aten.fill_.Scalar](args = (%empty, 7.0), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%ones_like, %zeros), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %full), kwargs = {})
    %add_2 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_1, %fill_), kwargs = {})
    return (add_2, mul, _to_copy_1)
