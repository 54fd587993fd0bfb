using RpcCompare.Contracts;

namespace RpcCompare.Service.Tests;

public sealed class CallShapeAndPayloadServiceTests
{
    [Fact]
    public async Task CallShapes_ReturnTheDocumentedValuesAndConsumeArguments()
    {
        var service = new CallShapeService();

        await service.VoidCallAsync();
        await service.TakeIntAsync(new IntMessage { Value = 7 });
        await service.TakePointAsync(new PointMessage { X = 1, Y = 2, Z = 3, Weight = 0.5 });

        Assert.Equal(CallShapeService.Answer, (await service.ReturnIntAsync()).Value);
        Assert.Equal(int.MinValue, (await service.IncrementAsync(new IntMessage { Value = int.MaxValue })).Value);
        Assert.Equal(7, service.LastArguments.LastInt);
        Assert.Equal(0.5, service.LastArguments.LastPoint!.Weight);
    }

    [Fact]
    public async Task Payloads_ReportWhatArrived()
    {
        var service = new PayloadService();
        var data = new byte[] { 1, 2, 3 };

        Assert.Equal(data, (await service.EchoBytesAsync(new BytesMessage { Data = data })).Data);
        Assert.Equal(3, (await service.SendBytesAsync(new BytesMessage { Data = data })).Length);
        Assert.Equal(2, (await service.SendRecordsAsync(new RecordsMessage { Records = [new Rgba32(), new Rgba32()] })).Length);
        Assert.Equal(5, (await service.SendStringAsync(new StringMessage { Text = "héllo" })).Length);
    }
}
